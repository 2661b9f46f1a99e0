// The queue contract's optional job signal (1.1): never aborted while the worker keeps renewing the lease.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { JobQueue } from '../kernel/contracts/queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function leaseCases(name: string, setup: () => Promise<{ open(): Promise<JobQueue> }>, leaseMs: number): void {
  it('job signal: a held job\'s signal stays unaborted while its worker renews the lease (three leases long)', async (t) => {
    const queue = await (await setup()).open();
    const q = `q_${randomBytes(5).toString('hex')}`;
    let seen: { signal?: AbortSignal } | undefined;
    let done = false;
    const worker = await queue.work(q, { concurrency: 1, leaseMs }, async (job) => {
      seen = { ...(job.signal ? { signal: job.signal } : {}) };
      await sleep(leaseMs * 3);
      done = true;
    });
    await queue.enqueue(q, { v: 1 });
    while (!done) await sleep(20);
    await worker.stop();
    if (!seen?.signal) return t.skip(`${name} gives no job signal (optional, queue contract 1.1: no lease applies)`);
    assert.equal(seen.signal.aborted, false, `aborted: ${String(seen.signal.reason)}`);
  });
}
