import fs from 'node:fs/promises';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../../kernel/logger.js';
import { createOutboundClient, createOutboundGuard } from '../../kernel/outbound/index.js';
import { ENDPOINTS_KEY, type EndpointRecord } from '../../plugins/webhooks/endpoints.js';
import { createPublisher } from '../../plugins/webhooks/publisher.js';
import { signingSecrets } from '../../plugins/webhooks/secrets.js';
import { createSender } from '../../plugins/webhooks/sender.js';
import { newSigningSecret, signatureHeaders } from '../../plugins/webhooks/signing.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir, median, percentile, removeTempDir } from './children.js';

export interface WebhookBench {
  events: number;
  /** One event published (its delivery stored, fsync'd) on the JSON store, sequentially. */
  storeMedianMs: number;
  storeP99Ms: number;
  /** Bare `write` + `datasync` of the same payload line on the same disk, median. */
  fsyncMedianMs: number;
  deliveries: number;
  /** Stored, signed, sent and recorded, to a local receiver answering 204. */
  deliveriesPerSec: number;
  /** The same number of signed POSTs by plain fetch at the same concurrency, nothing stored. */
  baselinePerSec: number;
}

const CONCURRENCY = 32;

/** Times the publish path (store one delivery) and the sender's throughput, in-process on a fresh JSON store. */
export async function benchWebhooks(events: number, deliveries: number, progress: (line: string) => void): Promise<WebhookBench> {
  const dir = makeTempDir('taskloom-bench-webhooks-');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => { received++; res.writeHead(204).end(); });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const logger = createLogger({ logLevel: 'warn' });
  const storage = await openJsonStorage({ dir: path.join(dir, 'store'), logger });
  const client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: true }));
  try {
    const now = new Date().toISOString();
    const endpoint: EndpointRecord = { id: 'wh_bench', url, events: ['execution.succeeded'], enabled: true, createdAt: now, updatedAt: now, secret: newSigningSecret() };
    await storage.settings.set(ENDPOINTS_KEY, [endpoint]);
    const sender = createSender({
      deliveries: storage.deliveries!, claims: storage.claims, client, logger,
      policy: { baseDelayMs: 1000, maxDelayMs: 60_000, horizonMs: 3_600_000 }, timeoutMs: 10_000, pollMs: 1000, concurrency: CONCURRENCY,
      owner: 'bench', destinationOf: async () => ({ url, secrets: signingSecrets(endpoint) }),
    });
    const publisher = createPublisher({ deliveries: storage.deliveries!, endpoints: async () => (await storage.settings.get<EndpointRecord[]>(ENDPOINTS_KEY)) ?? [], logger, kick: () => {} });
    const data = { executionId: 'exec_bench', taskId: 'task_bench', status: 'success', durationMs: 812 };

    // 1. The cost of an event on a run: its delivery stored (sender stopped), against a bare fsync'd line.
    const times: number[] = [];
    const fsyncTimes: number[] = [];
    const handle = await fs.open(path.join(dir, 'baseline.jsonl'), 'a');
    try {
      for (let i = 0; i < events; i++) {
        let start = performance.now();
        await publisher.publish({ type: 'execution.succeeded', taskId: 'task_bench', data });
        times.push(performance.now() - start);
        start = performance.now();
        await handle.write(`${JSON.stringify({ type: 'execution.succeeded', data })}\n`);
        await handle.datasync();
        fsyncTimes.push(performance.now() - start);
      }
    } finally {
      await handle.close();
    }
    progress(`  stored ${events} event deliveries: median ${median(times).toFixed(2)} ms`);

    // 2. Throughput: the stored deliveries plus more, sent by the sender to the receiver, until all are recorded.
    const more = Math.max(0, deliveries - events);
    await Promise.all(Array.from({ length: more }, () => publisher.publish({ type: 'execution.succeeded', taskId: 'task_bench', data })));
    const started = performance.now();
    sender.start();
    while ((await storage.deliveries!.find({ status: 'pending', limit: 1 })).length > 0) await new Promise((r) => setTimeout(r, 20));
    const sendMs = performance.now() - started;
    await sender.stop();
    const delivered = (await storage.deliveries!.find({ status: 'delivered' })).length;
    if (delivered !== events + more) throw new Error(`${delivered} of ${events + more} delivered`);
    progress(`  sent ${delivered} deliveries in ${(sendMs / 1000).toFixed(2)} s`);

    // Baseline: the same number of signed POSTs at the same concurrency, plain fetch, nothing stored.
    const body = JSON.stringify({ type: 'execution.succeeded', data });
    let next = 0;
    const baseStart = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < delivered) {
        const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...signatureHeaders('msg_bench', body, [endpoint.secret]) } });
        await res.arrayBuffer();
      }
    }));
    const baseMs = performance.now() - baseStart;
    return {
      events, storeMedianMs: median(times), storeP99Ms: percentile(times, 99), fsyncMedianMs: median(fsyncTimes),
      deliveries: delivered, deliveriesPerSec: delivered / (sendMs / 1000), baselinePerSec: delivered / (baseMs / 1000),
    };
  } finally {
    await client.close();
    await storage.close();
    receiver.closeAllConnections();
    receiver.close();
    await removeTempDir(dir);
    void received;
  }
}
