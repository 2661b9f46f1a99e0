import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTRACT_VERSIONS } from '../../../kernel/contracts/provider.js';
import { createMemoryQueue, memoryQueue } from '../../../providers/queue/memory/index.js';
import { queueContract } from '../../../testing/queue.contract.js';

queueContract('memory', async () => {
  const queue = createMemoryQueue();
  return { open: async () => queue, close: () => queue.stop() };
});

describe('memory queue', () => {
  it('is the provider `memory` of the queue capability, not durable', async () => {
    assert.equal(memoryQueue.capability, 'queue');
    assert.equal(memoryQueue.contractVersion, CONTRACT_VERSIONS.queue);
    assert.equal(createMemoryQueue().capabilities.durable, false);
  });

  it('refuses bad queue names, ids and worker options with the rule in the message', async () => {
    const queue = createMemoryQueue();
    await assert.rejects(queue.enqueue('no spaces', {}), /queue name "no spaces" must be 1 to 50/);
    await assert.rejects(queue.enqueue('q', {}, { id: 'a:b' }), /job id "a:b" must be/);
    await assert.rejects(queue.work('q', { concurrency: 0 }, async () => {}), /concurrency 0 must be/);
    await assert.rejects(queue.work('q', { concurrency: 1, leaseMs: 10 }, async () => {}), /leaseMs 10 must be/);
  });
});
