import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiResponse } from './service.js';

export { sleep };

type Call = (method: string, url: string) => Promise<ApiResponse>;

/** Polls the delivery log until delivery `id` has `status` (and at least `attempts` attempts); throws after 60 s. */
export async function waitForDelivery(call: Call, id: string, status: string, attempts = 1, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await call('GET', '/api/webhooks/deliveries?limit=500')).body.deliveries?.find((d: { id: string }) => d.id === id);
    if (found?.status === status && found.attempts.length >= attempts) return found;
    if (Date.now() > deadline) throw new Error(`delivery ${id} is not ${status} after ${timeoutMs} ms: ${JSON.stringify(found)}`);
    await sleep(100);
  }
}
