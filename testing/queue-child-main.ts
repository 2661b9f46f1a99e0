// The child of queue-child.ts: builds the provider's queue as the registry would and holds the first job it takes.
import os from 'node:os';
import type { Logger } from '../kernel/contracts/logger.js';
import type { ProviderDefinition } from '../kernel/contracts/provider.js';

const spec = JSON.parse(process.env.QUEUE_CHILD!) as { module: string; exportName: string; config: Record<string, unknown>; queue: string; leaseMs: number };
const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };
const definition = (await import(spec.module))[spec.exportName] as ProviderDefinition<'queue'>;
const queue = await definition.create({
  config: spec.config, logger: silent, dataDir: os.tmpdir(), signal: new AbortController().signal,
  outbound: undefined as never, // a queue makes no outbound HTTP call
});
await queue.work(spec.queue, { concurrency: 1, leaseMs: spec.leaseMs }, async (job) => {
  process.stdout.write(`took ${job.id}\n`);
  await new Promise(() => {}); // held until the parent kills this process
});
