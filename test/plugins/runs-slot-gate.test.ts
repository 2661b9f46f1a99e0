// The gate that holds in-process runs to the computed limit (plugins/runs/slot-gate.ts): first come first served,
// a size that grows lets waiters in, one that shrinks lets no new one in until enough were released, and a waiter
// whose run was cancelled goes on at once without a slot.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSlotGate } from '../../plugins/runs/slot-gate.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

it('holds to its size, in order, and follows a size that moves', async () => {
  let size = 1;
  const gate = createSlotGate(() => size);
  const order: string[] = [];
  const first = await gate.acquire();
  const waiting = ['b', 'c', 'd'].map((name) => gate.acquire().then((release) => { order.push(name); return release; }));
  await tick();
  assert.deepEqual(order, [], 'one slot, held');
  size = 2;
  gate.refresh();
  await tick();
  assert.deepEqual(order, ['b'], 'a grown size lets the next in');
  size = 1;
  first();
  await tick();
  assert.deepEqual(order, ['b'], 'shrunk to 1 with b holding: c still waits');
  (await waiting[0]!)();
  await tick();
  assert.deepEqual(order, ['b', 'c']);
  (await waiting[1]!)();
  await tick();
  assert.deepEqual(order, ['b', 'c', 'd']);
  (await waiting[2]!)();
  assert.equal(gate.held, 0);
});

it('lets a cancelled waiter through at once, holding no slot', async () => {
  const gate = createSlotGate(() => 1);
  const holder = await gate.acquire();
  const controller = new AbortController();
  const cancelled = gate.acquire(controller.signal);
  controller.abort();
  const release = await cancelled;
  assert.equal(gate.held, 1, 'only the holder counts');
  release(); // a no-op
  assert.equal(gate.held, 1);
  holder();
  assert.equal(gate.held, 0);
});
