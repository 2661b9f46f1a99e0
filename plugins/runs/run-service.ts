import crypto from 'node:crypto';
import type { BrowserStates } from '../../layers/browser-states/browser-states.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { QueueWorker } from '../../kernel/contracts/queue.js';
import type { ExecutionTrigger, TaskRecord } from '../../kernel/contracts/records.js';
import type { ProxyRotation } from '../settings/decorators.js';
import { Errors } from '../../kernel/errors.js';
import type { Admission } from './admission.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Outputs } from '../credentials/decorators.js';
import type { Captures } from '../data/decorators.js';
import type { BrowserSessions, HeadfulSession } from '../headful/decorators.js';
import type { Instance } from '../instances/decorators.js';
import type { Metrics } from '../metrics/decorators.js';
import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';
import type { RunHealing } from './healing/run-healing.js';
import type { RunFiles } from './run-files.js';
import type { StreamSources } from './event-stream.js';
import { createFinalRecords, type FinalRecordLimits } from './final-records.js';
import { LiveRun, RunStop, type RunAnswer } from './live-run.js';
import { createRunExecution, notStarted } from './run-execution.js';
import { createHumanPauses, type AwaitingHumanEvent } from './human-pause.js';
import { cancelElsewhere } from './remote-cancel.js';
import { resumeElsewhere } from './resume-elsewhere.js';
import { createRunBroadcast } from './run-broadcast.js';
import type { RunChannel } from './run-channel.js';
import { createFollowers } from './run-followers.js';
import { createRunManager } from './run-manager.js';
import { createRunWorker, jobOf, RUN_QUEUE, type LocalStart } from './run-worker.js';
import { createRequeue } from './run-requeue.js';
import { createReconciler } from './run-reconciler.js';
import { BUSY_RETRY_LIMITS, type BusyRetryLimits } from './run-retry.js';
import { RunToHereViews } from './run-to-here-views.js';
import { jobIdOf } from '../../layers/execution-requeue/requeued-record.js';
import type { WebhookOptions } from './webhook.js';
import type { EventBus } from '../../layers/events/event-bus.js';
import { createRunEvents } from './run-events.js';
import { traceparentOf } from '../../layers/tracing/tracing.js';

export interface RunOptions {
  trigger: ExecutionTrigger;
  /** Override the task's variables for this run. */
  variables?: Record<string, unknown>;
  /** A clean context: the stored cookies are neither loaded nor updated. */
  statelessExecution?: boolean;
  /** Checked by `checkWebhookUrl` first; receives the answer after the run. */
  webhookUrl?: string;
  /** Run in this open browser session (`POST /api/browser/open`); 404 NOT_FOUND when it is not open. */
  sessionId?: string;
  /** Record a Playwright trace (the task's `trace: true` asks for one too). */
  trace?: boolean;
  /** Start from this named browser state instead of the task's `browserState` (README "Browser states"). */
  browserState?: string;
  /** Save the run's browser state under this name once it succeeded, instead of the task's `saveBrowserState`. */
  saveBrowserState?: string;
}

export interface StartedRun {
  executionId: string;
  /**
   * Resolves once the record is final (the webhook may still be under way). Rejects only with SHUTTING_DOWN, when
   * this instance stops while the run waits in a shared queue (another instance runs it).
   */
  finished: Promise<RunAnswer>;
}

export interface RunServiceDeps {
  services: KernelServices;
  /** Run admission (admission.ts): the queue bound, the worker's concurrency, run times. Absent: as configured, unbounded. */
  admission?: Admission;
  captures: Captures;
  proxyRotation: ProxyRotation;
  outputs: Outputs;
  headfulSession: HeadfulSession;
  browserSessions: BrowserSessions;
  instance: Instance;
  metrics: Metrics;
  /** The CAPTCHA solver (the captcha plugin's), when one is configured. */
  captcha?: CaptchaSolver | null;
  /** Fingerprints and selector repairs (README "Healing"). */
  healing?: RunHealing;
  /** Task files for upload actions and the download limit (README "Task files"); absent: neither action works. */
  files?: RunFiles;
  /** Named browser states (the browser-states plugin's `app.browserStates`), read when a run starts; absent: none. */
  browserStates?: () => BrowserStates | undefined;
  logger: Logger;
  /**
   * Where runs publish their events and hand their completion webhook (the webhooks plugin's `app.events`); without
   * it, no events, and the webhook goes out directly (3 quick attempts, unsigned).
   */
  eventBus?: EventBus & { present(): boolean };
  /** Per-attempt timeout and retry delays of the direct webhook (tests shorten them); the defaults otherwise. */
  webhook?: Pick<WebhookOptions, 'timeoutMs' | 'retryDelaysMs'>;
  /** How many final records are kept while storage is unavailable, and the retry backoff; the defaults otherwise. */
  finalRecords?: FinalRecordLimits;
  /** The instances' run channel (a shared queue with topics): events and cancels reach every instance. */
  channel?: RunChannel;
  /** How a run a browser grid turns away is queued again (tests shorten it); the defaults otherwise. */
  busyRetry?: BusyRetryLimits;
  /** A result whose JSON is larger is stored apart from its record (RESULT_INLINE_MAX_BYTES); default 256 KiB. */
  resultInlineMaxBytes?: number;
  /** How often (ms) queued runs without a job are looked for (shared queue); default 15000. */
  reconcileEveryMs?: number;
  /** Told when a run starts waiting for a person, with its handoff link: where `execution.awaiting_human` is sent. */
  onAwaitingHuman?: (event: AwaitingHumanEvent) => void;
}

export type RunService = ReturnType<typeof createRunService>;

/** A run's job payload without its id (the record holds it): what `queueing.job` keeps. */
const queuedJob = (options: RunOptions) => {
  const { executionId: _id, ...job } = jobOf('', options);
  return job;
};
const newExecutionId = () => `exec_${crypto.randomBytes(12).toString('base64url')}`;
const SHUTDOWN_STOP = () => new RunStop('cancelled', 'The service is shutting down; the run had not started');
const LEASE_LOST_STOP = () => new RunStop('interrupted',
  'The instance running it could not reach its storage for half its lease: stopped, so that no other instance runs it at the same time');

/**
 * Runs go through `services.queue`: a run request stores the `queued` execution and enqueues its id; a worker with
 * a free slot (MAX_CONCURRENT_RUNS) runs it. In-process (QUEUE=memory) that worker is this process's; with a shared
 * queue any instance's, and the answer comes back through the record. A run in an open browser session stays in
 * this process (the session lives only here).
 */
export function createRunService(deps: RunServiceDeps) {
  const { services, logger } = deps;
  const { queue } = services;
  let followerCount = () => 0;
  const manager = createRunManager(logger, () => followerCount());
  const shared = queue.capabilities.durable;
  const store = services.storage.executions;
  // A record that cannot be written now (storage outage) is kept and written when the store is back.
  const finals = createFinalRecords(store, logger, deps.finalRecords);
  const broadcast = createRunBroadcast(deps.channel, manager, (run) => void stopLocal(run).catch((error: unknown) => {
    logger.warn({ err: error, executionId: run.executionId }, 'cancelling a run asked by another instance failed');
  }), (run) => (pauses.resume(run.executionId) ? { resumed: true } : { resumed: false, reason: `it is ${run.status}` }));
  const starts = new Map<string, LocalStart>();
  const requeuer = createRequeue({ queue, store, logger });
  const reconciler = shared ? createReconciler({ queue, store, requeuer, logger }) : undefined;
  const events = createRunEvents(deps.eventBus);
  const pauses = createHumanPauses({ store, logger, publish: deps.onAwaitingHuman });
  const execution = createRunExecution({ ...deps, manager, broadcast, requeuer, starts, events, busyRetry: deps.busyRetry ?? BUSY_RETRY_LIMITS, pauses }, finals);
  const followers = createFollowers(store, finals, (executionId) => starts.delete(executionId));
  followerCount = () => followers.size;
  const handle = createRunWorker({ executions: store, tasks: services.storage.tasks, instance: deps.instance, execution, manager, starts, requeuer, logger });
  let stopReconciling = () => {};
  let worker: QueueWorker | undefined;
  // Before the others may take this instance for dead (and mark its runs interrupted), its runs stop here.
  deps.instance.onLeaseLost(() => {
    for (const run of manager.runs()) if (run.status === 'running') run.controller.abort(LEASE_LOST_STOP());
  });

  /** A run this process queued ends before it started (cancelled while queued, or at shutdown). */
  const endQueued = async (local: LocalStart, stop: RunStop) => {
    starts.delete(local.run.executionId);
    await execution.finalize(local.run, local.task, local.options, notStarted(stop));
  };

  /** Removes a queued run's job from the queue: that of its first turn, or of the turn its record names (requeued). */
  async function cancelJob(executionId: string): Promise<boolean> {
    if (await queue.cancel(RUN_QUEUE, executionId)) return true;
    const record = await store.get(executionId);
    return record?.status === 'queued' && jobIdOf(record) !== executionId && queue.cancel(RUN_QUEUE, jobIdOf(record));
  }

  /** Stops a run of this process on request: one still in the queue leaves it, a running one is aborted. */
  async function stopLocal(run: LiveRun): Promise<void> {
    const local = run.status === 'queued' ? starts.get(run.executionId) : undefined;
    if (local && (await cancelJob(run.executionId))) await endQueued(local, new RunStop('cancelled', 'Cancelled on request'));
    else run.controller.abort(new RunStop('cancelled', 'Cancelled on request'));
  }

  /** Stores the record (`queued`) and enqueues it; resolves once it is queued. */
  async function start(task: TaskRecord, options: RunOptions): Promise<StartedRun> {
    if (!manager.accepting) throw Errors.SHUTTING_DOWN();
    const admitted = await deps.admission?.admit(); // 429 QUEUE_FULL when MAX_QUEUED_RUNS wait already
    try {
      const started = await enqueue(task, options);
      void started.finished.then((answer) => deps.admission?.observeRun(answer.durationMs), () => {});
      return started;
    } finally {
      admitted?.();
    }
  }

  async function enqueue(task: TaskRecord, options: RunOptions): Promise<StartedRun> {
    const withContext = execution.contextSource(task, options);
    const run = new LiveRun(newExecutionId(), task.id);
    const pinned = shared && options.sessionId !== undefined;
    const now = new Date().toISOString();
    await store.insert({
      executionId: run.executionId, taskId: task.id, taskName: task.name, status: 'queued', trigger: options.trigger,
      startedAt: now, queuedAt: now, mode: task.mode, durationMs: 0, result: {}, logs: [],
      ...(options.variables === undefined ? {} : { variables: options.variables }), // what a re-run sends again
      // Whose run it is, for recovery and the schedules' overlap check; in a shared queue, nobody's until taken.
      ...(shared && !pinned ? {} : { instanceId: deps.instance.id }),
      // What any instance needs to enqueue it again (retries, the reconciler): internal, never answered.
      queueing: { job: queuedJob(options), ...(task.retries ? { retries: task.retries } : {}) },
    });
    run.log('info', `queued (trigger: ${options.trigger})`);
    logger.info({ executionId: run.executionId, taskId: task.id, trigger: options.trigger }, 'run queued');
    events.queued(run.executionId, task.id, options.trigger);
    if (pinned) {
      manager.register(run);
      void execution.perform(run, task, options, withContext);
      return { executionId: run.executionId, finished: run.finished };
    }
    const local: LocalStart = { run, task, options, withContext };
    starts.set(run.executionId, local);
    if (!shared) manager.register(run);
    const finished = shared ? followers.follow(run) : run.finished;
    try {
      const traceparent = traceparentOf(run.trace.context);
      await queue.enqueue(RUN_QUEUE, { ...jobOf(run.executionId, options), ...(traceparent ? { traceparent } : {}) }, { id: run.executionId });
    } catch (error) {
      logger.error({ err: error, executionId: run.executionId }, 'the run queue is unreachable: the run cannot start');
      const message = `The run queue is unreachable: ${error instanceof Error ? error.message : String(error)}`;
      starts.delete(run.executionId);
      await execution.finalize(run, task, options, { status: 'error', result: { data: null, captures: [], error: { message } } });
    }
    return { executionId: run.executionId, finished };
  }

  /** Cancels a queued run of a shared queue that no instance has taken; false when one has. */
  async function cancelShared(executionId: string): Promise<boolean> {
    if (!shared || !(await cancelJob(executionId))) return false;
    const local = starts.get(executionId);
    if (local) {
      await endQueued(local, new RunStop('cancelled', 'Cancelled on request'));
      return true;
    }
    const finishedAt = new Date().toISOString();
    await store.update(executionId, (record) => (record.status !== 'queued' ? undefined : {
      ...record, status: 'cancelled', finishedAt, durationMs: 0, result: { data: null, captures: [], error: { message: 'Cancelled on request' } },
      logs: [...record.logs, { at: finishedAt, level: 'warn', message: 'finished: cancelled in 0 ms' }],
    }));
    return true;
  }

  return {
    manager,
    start,
    finals,

    /** Starts this instance's worker (not with ROLE=api): from now on it takes runs of the queue. */
    async startWorker(): Promise<void> {
      const concurrency = deps.admission?.workerConcurrency ?? services.config.maxConcurrentRuns;
      worker = await queue.work(RUN_QUEUE, { concurrency }, deps.admission?.gated(handle) ?? handle);
    },

    /** With a shared queue: enqueues, now and then every so often, queued runs that have no job (see run-reconciler.ts). */
    startReconciling(): void {
      if (reconciler) stopReconciling = reconciler.every(deps.reconcileEveryMs);
    },

    /**
     * Shutdown: takes no more runs; queued ones are cancelled (in-process queue) or stay queued for the other
     * instances (shared queue); running ones get `graceMs`, then end `interrupted`.
     */
    async shutdown(graceMs: number): Promise<void> {
      stopReconciling();
      requeuer.stop();
      const stopping = worker?.stop();
      await manager.shutdown(graceMs, async (queued) => {
        followers.stopAll(Errors.SHUTTING_DOWN());
        for (const run of queued) {
          const local = starts.get(run.executionId);
          if (local && (await cancelJob(run.executionId).catch(() => false))) await endQueued(local, SHUTDOWN_STOP());
          else run.controller.abort(SHUTDOWN_STOP());
        }
      });
      await stopping;
    },

    /** True while a run of the task is queued or running in this process (or queued by it in a shared queue). */
    isRunning(taskId: string): boolean {
      return manager.some((run) => run.taskId === taskId) || followers.has(taskId);
    },

    /** Refuses (400 INVALID_WEBHOOK_URL) a malformed URL or one the private-network rule forbids. */
    async checkWebhookUrl(url: string): Promise<void> {
      await services.outbound.guard.checkUrl(url, { errorAs: Errors.INVALID_WEBHOOK_URL });
    },

    /** `start`, then the answer once the run ended: what the scheduler and `POST /api/tasks/{id}/api` use. */
    async execute(task: TaskRecord, options: RunOptions): Promise<RunAnswer> {
      return (await start(task, options)).finished;
    },

    /** The runs of this process waiting for a person, and their handoff links (human-pause.ts). */
    pauses,

    /**
     * Resumes a run waiting for a person, here or on the instance holding it (asked through the run channel:
     * resume-elsewhere.ts): 404 EXECUTION_NOT_FOUND, or 409 EXECUTION_NOT_PAUSED for a run that ended or does not
     * wait (or waits on another instance and there is no run channel: resumed there).
     */
    async resume(executionId: string): Promise<void> {
      if (pauses.resume(executionId)) return;
      const record = await store.get(executionId);
      if (!record) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
      const finished = record.status !== 'queued' && record.status !== 'running';
      const elsewhere = !finished && record.outcome === 'awaiting_human' && record.instanceId && record.instanceId !== deps.instance.id;
      if (elsewhere && deps.channel) return resumeElsewhere({ store, channel: deps.channel, instance: deps.instance, logger }, record);
      throw Errors.EXECUTION_NOT_PAUSED({
        id: executionId,
        reason: finished ? `it ended (${record.status})` : elsewhere ? `it waits on instance ${record.instanceId} (resume it there)` : `it is ${record.status}`,
      });
    },

    /** The runs to here a live view may watch (those that asked, with a `liveId`). */
    toHere: new RunToHereViews(),

    /** What the event stream of an execution reads. */
    streamSources: { manager, store, finals, channel: deps.channel } satisfies StreamSources,

    /**
     * Stops a queued or running run, on whichever instance it is (another one through the run channel); resolves
     * to its final status (`cancelled`). 409 EXECUTION_FINISHED once it has ended otherwise.
     */
    async cancel(executionId: string): Promise<{ status: 'cancelled' }> {
      const run = manager.get(executionId);
      if (!run) {
        if (await cancelShared(executionId)) return { status: 'cancelled' };
        const ended = finals.answerOf(executionId); // ended during a storage outage: its record is not written yet
        if (ended) throw Errors.EXECUTION_FINISHED({ id: executionId, status: ended.answer.status });
        const record = await store.get(executionId);
        if (!record) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
        if (record.status !== 'queued' && record.status !== 'running') throw Errors.EXECUTION_FINISHED({ id: executionId, status: record.status });
        if (!deps.channel) {
          throw Errors.EXECUTION_FINISHED({}, { details: `Execution ${executionId} is ${record.status} in another instance of the service` });
        }
        const end = await cancelElsewhere({ store, channel: deps.channel, instance: deps.instance, logger }, record);
        if (end.status !== 'cancelled') throw Errors.EXECUTION_FINISHED({ id: executionId, status: end.status });
        return { status: 'cancelled' };
      }
      await stopLocal(run);
      const answer = await run.finished;
      if (answer.status !== 'cancelled') throw Errors.EXECUTION_FINISHED({ id: executionId, status: answer.status });
      return { status: 'cancelled' };
    },
  };
}
