import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ExecutionMarkFilter, ExecutionStore } from '../../kernel/contracts/storage.js';
import type { Instance } from '../instances/decorators.js';
import { requeuedAfterDeath } from '../../layers/execution-requeue/requeued-record.js';

/** How often the leases are looked at for instances that stopped without cleaning up (a crash, a lost host). */
export const SWEEP_EVERY_MS = 30_000;

const UNFINISHED: ExecutionStatus[] = ['queued', 'running'];

export interface RecoveryDeps {
  store: ExecutionStore;
  instance: Pick<Instance, 'id' | 'dead' | 'forget'>;
  logger: Logger;
  /**
   * The queue is shared (QUEUE=pg-boss, bullmq): a queued run names no instance until one takes it, and waits in
   * the queue for any instance, so only `running` records that name none are leftovers.
   */
  sharedQueue?: boolean;
}

/**
 * Runs that can never finish become `interrupted`: those of this instance id left by an earlier process, those
 * of instances whose lease has ended, and (at start-up) those that name no instance (written before instances
 * were named). Runs of instances whose lease holds are theirs to finish: several instances share one history. With a
 * shared queue, queued runs belong to the queue, not to an instance: they stay queued.
 */
export function createRecovery(deps: RecoveryDeps) {
  const { store, instance } = deps;
  const log = deps.logger;
  const mark = (filter: ExecutionMarkFilter) => store.markAll(UNFINISHED, 'interrupted', new Date().toISOString(), filter);

  /**
   * With a shared queue, a dead instance's running runs whose task asked for retries go back to the queue instead
   * (their records `queued` again; the runs plugin's reconciler enqueues them, unless the job given back does first).
   */
  async function requeueRetries(instanceId: string): Promise<number> {
    if (!deps.sharedQueue) return 0;
    const requeued: string[] = [];
    for (const record of await store.list({ status: 'running', limit: 1000 })) {
      if (record.instanceId !== instanceId || !record.queueing?.retries) continue;
      const again = await store.update(record.executionId, (current) =>
        (current.instanceId === instanceId ? requeuedAfterDeath(current, Date.now()) : undefined));
      if (again?.status === 'queued') requeued.push(record.executionId);
    }
    if (requeued.length > 0) log.warn({ requeued, instance: instanceId }, 'runs of an instance that stopped are queued again (their tasks ask for retries)');
    return requeued.length;
  }

  /** The leftovers of instances whose lease has ended; then their leases go. Resolves to how many runs changed. */
  async function sweep(): Promise<number> {
    let changed = 0;
    const dead = await instance.dead();
    for (const gone of dead) {
      changed += await requeueRetries(gone.id);
      const n = await mark({ instanceId: gone.id });
      if (n > 0) log.warn({ interrupted: n, instance: gone.id, host: gone.lease.host, reason: gone.reason }, 'executions of an instance that stopped are now interrupted');
      changed += n;
    }
    await instance.forget(dead.map((gone) => gone.id));
    return changed;
  }

  return {
    sweep,

    /** Before this process queues anything (see the plugin): every run of this instance id is an earlier process's. */
    async atStartup(): Promise<number> {
      const own = await mark({ instanceId: instance.id });
      const unnamed = deps.sharedQueue
        ? await store.markAll(['running'], 'interrupted', new Date().toISOString(), { instanceId: null })
        : await mark({ instanceId: null });
      const changed = own + unnamed + (await sweep());
      if (changed > 0) log.warn({ interrupted: changed }, 'executions left queued or running by an earlier stop are now interrupted');
      else log.info({ interrupted: 0 }, 'no execution was left queued or running');
      return changed;
    },

    /** Sweeps every `everyMs` until the returned function is called; a failed sweep is logged and tried again. */
    every(everyMs = SWEEP_EVERY_MS): () => void {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        sweep()
          .catch((error: unknown) => log.warn({ err: error }, 'sweeping the executions of stopped instances failed; retrying'))
          .finally(() => { running = false; });
      }, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type Recovery = ReturnType<typeof createRecovery>;
