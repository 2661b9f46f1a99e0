// Cases of the engine-backed scheduler providers beyond the contract, shared by pg-boss.test.ts and bullmq.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { ProviderDefinition } from '../../../kernel/contracts/provider.js';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { createQueuedScheduler, fireId, overlapKey } from '../../../providers/scheduler/shared/queued-scheduler.js';
import { createMemoryQueue } from '../../../providers/queue/memory/memory-queue.js';
import { silentLogger } from '../../../testing/loggers.js';

const context = (queue?: JobQueue) => ({
  config: {}, logger: silentLogger, dataDir: '/tmp', signal: new AbortController().signal, outbound: undefined as never, ...(queue ? { queue } : {}),
});

export function providerCases(id: 'pg-boss' | 'bullmq', definition: ProviderDefinition<'scheduler'>, queue: JobQueue, recorded: { lines: string[] }): void {
  it(`rides on the service's ${id} queue, and refuses another queue saying what to set`, async () => {
    const scheduler = await definition.create(context(queue));
    assert.deepEqual([scheduler.id, scheduler.capabilities], [id, { timezones: true, sharedFires: true }]);
    await assert.rejects(definition.create(context(createMemoryQueue())), new RegExp(`SCHEDULER=${id} .* but QUEUE=memory: set QUEUE=${id}`));
    await assert.rejects(definition.create(context()), /none was given/);
  });

  it('skips a fire that reaches a worker more than five minutes after its time (every instance was down)', async () => {
    const queueName = `fires-${randomBytes(6).toString('hex')}`;
    const scheduler = createQueuedScheduler({ id, queue, logger: silentLogger, queueName });
    const job = { key: 'old', cron: '* * * * *' };
    const stale = Math.floor(Date.now() / 60_000) * 60_000 - 6 * 60_000;
    const fresh = Math.floor(Date.now() / 60_000) * 60_000;
    await queue.enqueue(queueName, { job, plannedMs: stale }, { id: fireId('old', stale), key: overlapKey('old') });
    const fires: number[] = [];
    await scheduler.start((_job, planned) => { fires.push(planned); });
    await queue.enqueue(queueName, { job: { key: 'new', cron: '* * * * *' }, plannedMs: fresh }, { id: fireId('new', fresh), key: overlapKey('new') });
    for (let i = 0; i < 100 && fires.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await scheduler.stop();
    assert.deepEqual(fires, [fresh]);
  });

  it('logged no error through the contract but the handler failures it provokes, and a warning for the fire handed on', () => {
    const errors = recorded.lines.filter((line) => /^(error|fatal) /.test(line));
    assert.deepEqual(errors.filter((line) => !line.endsWith('scheduled fire handler threw')), []);
    assert.equal(errors.length, 3);
    assert.equal(recorded.lines.filter((line) => line.endsWith('a fire whose holder stopped is handed on')).length, 1);
  });
}
