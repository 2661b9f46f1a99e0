import crypto from 'node:crypto';
import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionRecord, ExecutionTrigger, TaskRecord } from '../../kernel/contracts/records.js';
import type { ProxyRotation } from '../settings/decorators.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Outputs } from '../credentials/decorators.js';
import type { Captures } from '../data/decorators.js';
import type { BrowserSessions, HeadfulSession } from '../headful/decorators.js';
import type { Instance } from '../instances/decorators.js';
import type { Metrics } from '../metrics/decorators.js';
import { browseRun, type BrowseOutcome } from './browse-run.js';
import { createFinalRecords, type FinalRecordLimits } from './final-records.js';
import { LiveRun, RunStop, type RunAnswer } from './live-run.js';
import { pushOutput, type OutputReport } from './output-push.js';
import type { RunManager } from './run-manager.js';
import { outputOf, proxyOptionsOf, variablesOf } from './task-options.js';
import { deliverWebhook, type WebhookOptions } from './webhook.js';

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
}

export interface StartedRun {
  executionId: string;
  /** Resolves once the record is final (the webhook may still be under way). Never rejects. */
  finished: Promise<RunAnswer>;
}

export interface RunServiceDeps {
  services: KernelServices;
  captures: Captures;
  proxyRotation: ProxyRotation;
  outputs: Outputs;
  headfulSession: HeadfulSession;
  browserSessions: BrowserSessions;
  instance: Instance;
  metrics: Metrics;
  manager: RunManager;
  logger: Logger;
  /** Per-attempt timeout and retry delays of the webhook (tests shorten them); the defaults otherwise. */
  webhook?: Pick<WebhookOptions, 'timeoutMs' | 'retryDelaysMs'>;
  /** How many final records are kept while storage is unavailable, and the retry backoff; the defaults otherwise. */
  finalRecords?: FinalRecordLimits;
}

export type RunService = ReturnType<typeof createRunService>;

const newExecutionId = () => `exec_${crypto.randomBytes(12).toString('base64url')}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createRunService(deps: RunServiceDeps) {
  const { services, manager, logger } = deps;
  const store = services.storage.executions;
  // A record that cannot be written now (storage outage) is kept and written when the store is back.
  const finals = createFinalRecords(store, logger, deps.finalRecords);
  const save = (executionId: string, change: (record: ExecutionRecord) => ExecutionRecord) => finals.write(executionId, change);

  async function pushIfAsked(run: LiveRun, task: TaskRecord, outcome: BrowseOutcome): Promise<OutputReport | undefined> {
    const option = outputOf(task);
    if (!option || outcome.status !== 'success') return undefined;
    const report = await pushOutput(deps.outputs, option, outcome.result.data);
    if (report.error === undefined) {
      run.log('info', `pushed ${report.pushed} rows to the output table`);
      return report;
    }
    run.log(option.onError === 'fail' ? 'error' : 'warn', `pushing rows to the output failed: ${report.error}`);
    if (option.onError === 'fail') {
      outcome.status = 'error';
      outcome.result.error = { message: `Pushing the rows to the output failed: ${report.error}` };
    }
    return report;
  }

  async function finalize(run: LiveRun, task: TaskRecord, options: RunOptions, outcome: BrowseOutcome, startedMs?: number) {
    const output = await pushIfAsked(run, task, outcome);
    const durationMs = startedMs === undefined ? 0 : Date.now() - startedMs;
    deps.metrics.runFinished(outcome.status, startedMs === undefined ? undefined : durationMs / 1000);
    logger.info({ executionId: run.executionId, taskId: task.id, status: outcome.status, durationMs }, 'run finished');
    run.log(outcome.status === 'success' ? 'info' : 'warn', `finished: ${outcome.status} in ${durationMs} ms`);
    const answer: RunAnswer = { executionId: run.executionId, taskId: task.id, status: outcome.status, durationMs, result: outcome.result };
    const finishedAt = new Date().toISOString();
    const logs = run.storedLogs();
    await finals.write(run.executionId, (record) => ({
      ...record, status: outcome.status, finishedAt, durationMs, result: outcome.result, logs, ...(output ? { output } : {}),
    }), { answer, logs });
    manager.unregister(run);
    run.finish(answer);
    if (options.webhookUrl) {
      // After the answer: the caller never waits for a slow receiver.
      manager.track(deliverWebhook(services.outbound.client, options.webhookUrl, answer, logger, { ...deps.webhook, signal: services.shutdownSignal })
        .then((webhook) => save(run.executionId, (record) => ({ ...record, webhook }))));
    }
  }

  /** Where the run's context comes from: a browser session, the headful session (mode headful) or the pool. */
  function contextSource(task: TaskRecord, options: RunOptions): BrowserPool['withContext'] {
    const { headfulSession, browserSessions } = deps;
    if (options.sessionId !== undefined) {
      const session = browserSessions.get(options.sessionId);
      return session.withContext.bind(session);
    }
    if (task.mode === 'headful') return headfulSession.withContext.bind(headfulSession);
    return services.browser.withContext;
  }

  async function perform(run: LiveRun, task: TaskRecord, options: RunOptions, withContext: BrowserPool['withContext']): Promise<void> {
    let release: () => void;
    try {
      release = await manager.acquire(run.signal);
    } catch (reason) {
      const stop = reason instanceof RunStop ? reason : new RunStop('cancelled', 'Cancelled before it started');
      return finalize(run, task, options, { status: stop.status, result: { data: null, captures: [], error: { message: stop.message } } });
    }
    const startedMs = Date.now();
    let outcome: BrowseOutcome;
    try {
      run.setStatus('running');
      run.log('info', 'started');
      const startedAt = new Date(startedMs).toISOString();
      await finals.write(run.executionId, (record) => ({ ...record, status: 'running', startedAt }), undefined, true);
      outcome = await browseRun({
        services, captures: deps.captures,
        chooseProxy: (t, log) => deps.proxyRotation.forTask(proxyOptionsOf(t), { log }),
      }, { run, task, variables: variablesOf(task, options.variables), stateless: options.statelessExecution === true, withContext });
    } catch (error) {
      logger.error({ err: error, executionId: run.executionId }, 'a run failed unexpectedly');
      outcome = { status: 'error', result: { data: null, captures: [], error: { message: `Internal error: ${messageOf(error)}` } } };
    } finally {
      release();
    }
    return finalize(run, task, options, outcome, startedMs);
  }

  /** Stores the record (`queued`) and runs the task when a slot frees up; resolves once it is queued. */
  async function start(task: TaskRecord, options: RunOptions): Promise<StartedRun> {
    if (!manager.accepting) throw Errors.SHUTTING_DOWN();
    const withContext = contextSource(task, options);
    const run = new LiveRun(newExecutionId(), task.id);
    const now = new Date().toISOString();
    await store.insert({
      executionId: run.executionId, taskId: task.id, taskName: task.name, status: 'queued', trigger: options.trigger,
      startedAt: now, queuedAt: now, mode: task.mode, durationMs: 0, result: {}, logs: [],
      instanceId: deps.instance.id, // whose run it is, for recovery and the schedules' overlap check
    });
    manager.register(run);
    run.log('info', `queued (trigger: ${options.trigger})`);
    logger.info({ executionId: run.executionId, taskId: task.id, trigger: options.trigger }, 'run queued');
    void perform(run, task, options, withContext);
    return { executionId: run.executionId, finished: run.finished };
  }

  return {
    manager,
    start,
    finals,

    /** True while a run of the task is queued or running in this process. */
    isRunning(taskId: string): boolean {
      return manager.some((run) => run.taskId === taskId);
    },

    /** Refuses (400 INVALID_WEBHOOK_URL) a malformed URL or one the private-network rule forbids. */
    async checkWebhookUrl(url: string): Promise<void> {
      await services.outbound.guard.checkUrl(url, { errorAs: Errors.INVALID_WEBHOOK_URL });
    },

    /** `start`, then the answer once the run ended: what the scheduler and `POST /api/tasks/{id}/api` use. */
    async execute(task: TaskRecord, options: RunOptions): Promise<RunAnswer> {
      return (await start(task, options)).finished;
    },

    /** Stops a queued or running run; resolves to its final status (`cancelled`). */
    async cancel(executionId: string): Promise<{ status: 'cancelled' }> {
      const run = manager.get(executionId);
      if (!run) {
        const ended = finals.answerOf(executionId); // ended during a storage outage: its record is not written yet
        if (ended) throw Errors.EXECUTION_FINISHED({ id: executionId, status: ended.answer.status });
        const record = await store.get(executionId);
        if (!record) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
        if (record.status === 'queued' || record.status === 'running') {
          throw Errors.EXECUTION_FINISHED({}, { details: `Execution ${executionId} is ${record.status} in another instance of the service` });
        }
        throw Errors.EXECUTION_FINISHED({ id: executionId, status: record.status });
      }
      run.controller.abort(new RunStop('cancelled', 'Cancelled on request'));
      const answer = await run.finished;
      if (answer.status !== 'cancelled') throw Errors.EXECUTION_FINISHED({ id: executionId, status: answer.status });
      return { status: 'cancelled' };
    },
  };
}
