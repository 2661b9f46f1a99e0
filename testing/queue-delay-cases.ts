// The queue contract's optional delayed jobs (1.2, `capabilities.delay`): not taken before their delay, queued and
// cancellable meanwhile, and out-of-range delays refused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { MAX_DELAY_MS, type JobQueue } from '../kernel/contracts/queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function delayCases(name: string, setup: () => Promise<{ open(): Promise<JobQueue> }>): void {
  it('delay: a delayed job waits (queued, cancellable), then is delivered; a bad delay is refused', async (t) => {
    const queue = await (await setup()).open();
    if (!queue.capabilities.delay) return t.skip(`${name} does not declare capabilities.delay (optional, queue contract 1.2)`);
    const q = `q_${randomBytes(5).toString('hex')}`;
    const delivered = new Map<string, number>();
    const worker = await queue.work(q, { concurrency: 2 }, async (job) => { delivered.set(job.id, Date.now()); });
    const sentAt = Date.now();
    const later = (await queue.enqueue(q, { v: 'later' }, { delayMs: 1500 }))!;
    const doomed = (await queue.enqueue(q, { v: 'doomed' }, { delayMs: 1500 }))!;
    const now = (await queue.enqueue(q, { v: 'now' }))!;
    assert.equal(await queue.state(q, later), 'queued');
    assert.equal(await queue.cancel(q, doomed), true, 'a delayed job can be cancelled');
    for (const deadline = Date.now() + 20_000; !delivered.has(later); await sleep(20)) {
      if (Date.now() > deadline) throw new Error('the delayed job was never delivered');
    }
    // Before its delay nothing took it (a little slack for the engine's clock, which may run apart from ours).
    assert.ok(delivered.get(later)! - sentAt >= 1300, `delivered ${delivered.get(later)! - sentAt} ms after enqueueing`);
    assert.ok(delivered.get(now)! < delivered.get(later)!, 'the undelayed one went first');
    await sleep(300);
    assert.ok(!delivered.has(doomed), 'the cancelled one never ran');
    t.diagnostic(`${name}: delivered ${delivered.get(later)! - sentAt} ms after a 1500 ms delay`);
    await assert.rejects(queue.enqueue(q, {}, { delayMs: -1 }), RangeError);
    await assert.rejects(queue.enqueue(q, {}, { delayMs: MAX_DELAY_MS + 1 }), RangeError);
    await worker.stop();
  });
}
