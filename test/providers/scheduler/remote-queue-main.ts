// The helper of remote-queue.ts: opens the engine's queue on the real clock and runs the parent's calls.
import type { JobQueue, QueueWorker } from '../../../kernel/contracts/queue.js';
import { silentLogger } from '../../../testing/loggers.js';
import type { RemoteQueueSpec, ToHelper, ToParent } from './remote-queue.js';

const spec = JSON.parse(process.env.REMOTE_QUEUE!) as RemoteQueueSpec;
const send = (message: ToParent) => process.send!(message);
const queue: JobQueue = spec.engine === 'pg-boss'
  ? await (await import('../../../providers/queue/pg-boss/pg-boss-queue.js')).createPgBossQueue({ url: spec.url, logger: silentLogger })
  : await (await import('../../../providers/queue/bullmq/bullmq-queue.js')).createBullmqQueue({ url: spec.url, prefix: spec.prefix, logger: silentLogger });

const workers = new Map<number, QueueWorker>();
const handled = new Map<number, { resolve(): void; reject(error: Error): void }>();
let seq = 0;
let workerIds = 0;

async function run(method: Extract<ToHelper, { type: 'call' }>['method'], args: unknown[]): Promise<unknown> {
  switch (method) {
    case 'enqueue': return queue.enqueue(args[0] as string, args[1], (args[2] ?? undefined) as undefined);
    case 'cancel': return queue.cancel(args[0] as string, args[1] as string);
    case 'state': return queue.state(args[0] as string, args[1] as string);
    case 'work': {
      const id = ++workerIds;
      // The worker's handler waits until the parent's handler settled.
      workers.set(id, await queue.work(args[0] as string, args[1] as { concurrency: number }, (job) => new Promise<void>((resolve, reject) => {
        const jobSeq = ++seq;
        handled.set(jobSeq, { resolve, reject });
        send({ type: 'job', seq: jobSeq, worker: id, job });
      })));
      return id;
    }
    case 'stopWorker': {
      const worker = workers.get(args[0] as number);
      workers.delete(args[0] as number);
      await worker?.stop();
      return undefined;
    }
    case 'stop':
      await queue.stop();
      return undefined;
  }
}

process.on('message', (message: ToHelper) => {
  if (message.type === 'handled') {
    const waiting = handled.get(message.seq);
    handled.delete(message.seq);
    if (message.error === undefined) waiting?.resolve();
    else waiting?.reject(new Error(message.error));
    return;
  }
  run(message.method, message.args).then(
    (value) => send({ type: 'answer', seq: message.seq, value: value ?? null }),
    (error: unknown) => send({ type: 'answer', seq: message.seq, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
send({ type: 'answer', seq: 0 });
