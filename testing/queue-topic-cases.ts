// The queue contract's optional topics (1.1): `publish` reaches every subscriber on the engine, in order, whole.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { MAX_MESSAGE_BYTES, type JobQueue } from '../kernel/contracts/queue.js';

interface TopicFixture {
  open(): Promise<JobQueue>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const topicName = () => `t_${randomBytes(5).toString('hex')}`;

async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

/** Two queues of the fixture (two processes' worth on a durable engine), or the reason the provider has no topics. */
async function pair(setup: () => Promise<TopicFixture>, name: string): Promise<[JobQueue, JobQueue] | string> {
  const fixture = await setup();
  const [a, b] = [await fixture.open(), await fixture.open()];
  if (!a.publish || !a.subscribe) return `${name} offers no topics (publish and subscribe are optional, queue contract 1.1)`;
  return [a, b];
}

export function topicCases(name: string, setup: () => Promise<TopicFixture>): void {
  it('topics: a message reaches every subscriber of its topic, the publisher\'s own included, and no other topic', async (t) => {
    const queues = await pair(setup, name);
    if (typeof queues === 'string') return t.skip(queues);
    const [a, b] = queues;
    const topic = topicName();
    const got: Record<string, unknown[]> = { a: [], b: [], other: [] };
    const stops = [
      await a.subscribe!(topic, (m) => got.a!.push(m)),
      await b.subscribe!(topic, (m) => got.b!.push(m)),
      await b.subscribe!(topicName(), (m) => got.other!.push(m)),
    ];
    const sent = performance.now();
    await a.publish!(topic, { run: 'exec_1', when: new Date(0), list: [1, 'two', null] });
    await until(() => got.a!.length === 1 && got.b!.length === 1, 5_000, 'both subscribers');
    t.diagnostic(`${name}: published to received ${(performance.now() - sent).toFixed(1)} ms`);
    const expected = { run: 'exec_1', when: '1970-01-01T00:00:00.000Z', list: [1, 'two', null] };
    assert.deepEqual(got, { a: [expected], b: [expected], other: [] });
    await stops[1]!();
    await a.publish!(topic, 'after');
    await until(() => got.a!.length === 2, 5_000, 'the second message');
    await sleep(100);
    assert.equal(got.b!.length, 1, 'an ended subscription hears nothing more');
    await Promise.all([stops[0]!(), stops[2]!()]);
  });

  it('topics: messages of one publisher arrive in order, a large one whole; a too large one is refused', async (t) => {
    const queues = await pair(setup, name);
    if (typeof queues === 'string') return t.skip(queues);
    const [a, b] = queues;
    const topic = topicName();
    const got: unknown[] = [];
    const stop = await b.subscribe!(topic, (m) => got.push(m));
    // Multi-byte text near the limit: a provider that splits messages must not split a character.
    const large = { text: 'é😀'.repeat(Math.floor((MAX_MESSAGE_BYTES - 100) / 6)) };
    await Promise.all([
      ...Array.from({ length: 30 }, (_, n) => a.publish!(topic, n)),
      a.publish!(topic, large),
      ...Array.from({ length: 10 }, (_, n) => a.publish!(topic, 30 + n)),
    ]);
    await until(() => got.length === 41, 10_000, '41 messages');
    assert.deepEqual(got.filter((m) => typeof m === 'number'), Array.from({ length: 40 }, (_, n) => n), 'in order');
    assert.deepEqual(got[30], large, 'the large one whole, in its place');
    await assert.rejects(a.publish!(topic, { text: 'x'.repeat(MAX_MESSAGE_BYTES) }), TypeError);
    await stop();
  });
}
