import { context } from '@opentelemetry/api';
import { contextOf } from '../../layers/tracing/tracing.js';
import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { QueueJob } from '../../kernel/contracts/queue.js';
import type { ExecutionRecord, ExecutionTrigger, TaskRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore, TaskStore } from '../../kernel/contracts/storage.js';
import type { Instance } from '../instances/decorators.js';
import { jobIdOf, requeuedAfterDeath } from '../../layers/execution-requeue/requeued-record.js';
import type { Requeuer } from './run-requeue.js';
import { LiveRun, RunStop } from './live-run.js';
import type { RunExecution } from './run-execution.js';
import type { RunManager } from './run-manager.js';
import type { RunOptions } from './run-service.js';

/** The queue every instance's runs wait in (services.queue). */
export const RUN_QUEUE = 'runs';

/** What a queued run's job carries: enough for any instance to run it (the task is read when it starts). */
export interface RunJob {
  executionId: string;
  trigger: ExecutionTrigger;
  variables?: Record<string, unknown>;
  statelessExecution?: boolean;
  webhookUrl?: string;
  trace?: boolean;
  browserState?: string;
  saveBrowserState?: string;
  /** The trace of the request that queued it (W3C traceparent): another instance's run joins it. */
  traceparent?: string;
}

/** A run this process queued: what it was started with (a browser session's context is only here). */
export interface LocalStart {
  run: LiveRun;
  task: TaskRecord;
  options: RunOptions;
  withContext: BrowserPool['withContext'];
}

export interface RunWorkerDeps {
  executions: ExecutionStore;
  tasks: TaskStore;
  instance: Pick<Instance, 'id' | 'live'>;
  execution: RunExecution;
  manager: RunManager;
  /** Runs this process queued, by execution id; the worker takes an entry out when it takes the job. */
  starts: Map<string, LocalStart>;
  requeuer: Requeuer;
  logger: Logger;
}

/** A run whose job lease this worker lost stops: the queue may hand the job to another worker. */
function stopOnLeaseLoss(run: LiveRun, signal: AbortSignal | undefined): void {
  signal?.addEventListener('abort', () => run.controller.abort(new RunStop('interrupted',
    `This instance lost the run's job lease (${signal.reason instanceof Error ? signal.reason.message : 'the queue did not answer'}): stopped, so that no other instance runs it at the same time`)), { once: true });
}

export const jobOf = (executionId: string, options: RunOptions): RunJob => ({
  executionId, trigger: options.trigger,
  ...(options.variables === undefined ? {} : { variables: options.variables }),
  ...(options.statelessExecution === undefined ? {} : { statelessExecution: options.statelessExecution }),
  ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl }),
  ...(options.trace === undefined ? {} : { trace: options.trace }),
  ...(options.browserState === undefined ? {} : { browserState: options.browserState }),
  ...(options.saveBrowserState === undefined ? {} : { saveBrowserState: options.saveBrowserState }),
});

/**
 * The queue's handler: runs the job's run in this process. A run queued here is run as it was started; one queued
 * by another instance is built from its record and job. A job given back because the worker holding it died finds
 * its record `running`: it ends `interrupted` (its owner is gone), unless its owner is still alive and running it.
 */
export function createRunWorker(deps: RunWorkerDeps) {
  const { executions, manager, execution, logger } = deps;

  async function abandoned(record: ExecutionRecord): Promise<void> {
    if (manager.get(record.executionId)) return; // this process runs it: its lease lapsed meanwhile
    const owner = record.instanceId;
    if (owner !== undefined && owner !== deps.instance.id && (await deps.instance.live()).has(owner)) return;
    const mine = (current: ExecutionRecord) => current.status === 'running' && current.instanceId === owner;
    // The task asked for retries: back to the queue (next attempt) rather than `interrupted`.
    const again = await deps.requeuer.requeue(record.executionId, (current) => (mine(current) ? requeuedAfterDeath(current, Date.now()) : undefined));
    if (again) {
      logger.warn({ executionId: record.executionId, owner, attempt: again.attempt }, 'a run whose instance stopped is queued again (its task asks for retries)');
      return;
    }
    const finishedAt = new Date().toISOString();
    const marked = await executions.update(record.executionId, (current) =>
      mine(current) ? { ...current, status: 'interrupted', finishedAt } : undefined);
    if (marked?.status === 'interrupted') logger.warn({ executionId: record.executionId, owner }, 'a run whose instance stopped is now interrupted');
  }

  async function fromRecord(job: RunJob, jobId: string, signal: AbortSignal | undefined): Promise<void> {
    const record = await executions.get(job.executionId);
    if (!record) return; // removed while it waited
    // A job of an earlier turn (given back after the run went back to the queue): the record's own job runs it,
    // enqueued now in case the sweep queued the record again without it (the same id adds nothing).
    if (jobIdOf(record) !== jobId) {
      if (record.status === 'queued' && record.instanceId === undefined) await deps.requeuer.enqueue(record);
      return;
    }
    if (record.status === 'running') return abandoned(record);
    if (record.status !== 'queued') return; // ended while it waited
    const run = context.with(contextOf(job.traceparent), () => new LiveRun(record.executionId, record.taskId));
    if (record.logs.length > 0) run.resume(record.logs); // an earlier attempt's lines
    else run.log('info', `queued (trigger: ${record.trigger})`);
    const { executionId: _id, traceparent: _trace, ...options } = { ...job, trigger: job.trigger ?? record.trigger } satisfies RunJob;
    const task = await deps.tasks.get(record.taskId);
    manager.register(run);
    stopOnLeaseLoss(run, signal);
    if (!task) {
      const stub = { id: record.taskId, name: record.taskName } as TaskRecord;
      await execution.finalize(run, stub, options, { status: 'error', result: { data: null, captures: [], error: { message: 'The task was deleted before the run started' } } });
      return;
    }
    await execution.perform(run, task, options, execution.contextSource(task, options));
  }

  return async (job: QueueJob<RunJob>): Promise<void> => {
    const local = deps.starts.get(job.payload.executionId);
    if (!local) return fromRecord(job.payload, job.id, job.signal);
    deps.starts.delete(job.payload.executionId);
    manager.register(local.run);
    stopOnLeaseLoss(local.run, job.signal);
    await execution.perform(local.run, local.task, local.options, local.withContext);
  };
}
