import { context } from '@opentelemetry/api';
import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import type { ExecutionOutcome, ExecutionRecord, TaskRecord } from '../../kernel/contracts/records.js';
import { browseRun, type BrowseDeps, type BrowseOutcome } from './browse-run.js';
import { httpRun } from './http-mode/http-run.js';
import type { HumanPauses } from './human-pause.js';
import type { FinalRecords } from './final-records.js';
import { RunStop, type LiveRun, type RunAnswer } from './live-run.js';
import { pushOutput, type OutputReport } from './output-push.js';
import { answerOfRecord, recordEnd, UNFINISHED } from './record-answer.js';
import { claimRun, fenced, newRunToken } from './run-fence.js';
import type { RunBroadcast } from './run-broadcast.js';
import type { RunEvents } from './run-events.js';
import type { RunManager } from './run-manager.js';
import type { Requeuer } from './run-requeue.js';
import { nextTurn, type BusyRetryLimits } from './run-retry.js';
import type { RunOptions, RunServiceDeps } from './run-service.js';
import type { LocalStart } from './run-worker.js';
import { requeuedRecord } from '../../layers/execution-requeue/requeued-record.js';
import { outputOf, proxyOptionsOf, traceOf, variablesOf } from './task-options.js';
import { deliverWebhook } from './webhook.js';
import { noteProxyUse } from './proxy-blocks.js';
import { checkRunData } from './data-checks.js';
import { DEFAULT_RESULT_INLINE_MAX_BYTES } from '../../layers/stored-results/result-blobs.js';
import { storeResultApart, type RecordedResult } from '../../layers/stored-results/store-apart.js';
import { runBrowserStateOf } from './run-browser-state.js';

/** The outcome a run ends with: the one its end names, else the status's own. */
const outcomeOfEnd = (end: BrowseOutcome): ExecutionOutcome => end.outcome ?? end.status as ExecutionOutcome;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Why a run that asked for a trace has none. */
export const TRACE_NEEDS_PLAYWRIGHT = 'no trace recorded: traces need the Playwright engine (BROWSER_ENGINE=playwright)';

/** A run that ends before it started (cancelled while queued, stopped at shutdown): its outcome. */
export const notStarted = (stop: RunStop): BrowseOutcome => ({ status: stop.status, result: { data: null, captures: [], error: { message: stop.message } } });

/**
 * Runs one run in this process once the queue handed it over (`perform`), and ends any run of this process with
 * its final record, answer, output push and webhook (`finalize`).
 */
export interface RunExecutionParts {
  manager: RunManager;
  broadcast: RunBroadcast;
  requeuer: Requeuer;
  /** Runs this process queued (a run sent back to the in-process queue goes back in, to be run as it was). */
  starts: Map<string, LocalStart>;
  busyRetry: BusyRetryLimits;
  events: RunEvents;
  /** The runs waiting for a person. */
  pauses: HumanPauses;
}

export function createRunExecution(deps: RunServiceDeps & RunExecutionParts, finals: FinalRecords) {
  const { services, manager, logger } = deps;
  const store = services.storage.executions;
  const shared = services.queue.capabilities.durable;

  /**
   * A run that ended here and may go back to the queue (a busy grid, a retry its task asked for): its record turns
   * `queued` under the next job id (fenced by the claim), and the job is enqueued. Resolves to the outcome to end
   * the run with instead, or undefined once it is queued again.
   */
  async function requeueIfDue(run: LiveRun, claimed: ExecutionRecord, local: LocalStart, outcome: BrowseOutcome, token: string): Promise<BrowseOutcome | undefined> {
    // Runs in a browser session stay outside the queue; the in-process queue dies with a stopping process.
    if (local.options.sessionId !== undefined || !(shared || manager.accepting) || outcome.status === 'cancelled') return outcome;
    if (!shared && run.signal.aborted) return outcome; // a stopped run cannot be taken again by this process
    const next = nextTurn(claimed, outcome, deps.busyRetry, Date.now());
    if ('end' in next) return next.end;
    const logs = run.storedLogs();
    if (!shared) deps.starts.set(run.executionId, local);
    const stored = await deps.requeuer.requeue(run.executionId, fenced(token, (record) =>
      requeuedRecord(record, { ...next.requeue, logs, ...(shared ? {} : { owner: deps.instance.id }) }), true));
    if (!stored) {
      deps.starts.delete(run.executionId);
      return outcome;
    }
    run.log('warn', next.requeue.message);
    logger.info({ executionId: run.executionId, delayMs: next.requeue.delayMs, attempt: stored.attempt }, 'run sent back to the queue');
    // In-process, a queued run stays live here (cancel, events, shutdown find it); shared, the queue has it.
    if (shared) manager.unregister(run);
    run.setStatus('queued');
    return undefined;
  }

  async function pushIfAsked(run: LiveRun, task: TaskRecord, outcome: BrowseOutcome): Promise<OutputReport | undefined> {
    const option = outputOf(task);
    if (!option || outcome.status !== 'success') return undefined;
    const report = await run.trace.step('output push', () => pushOutput(deps.outputs, option, outcome.result.data));
    if (report.error === undefined) {
      run.log('info', `pushed ${report.pushed} rows to the output table`);
      return report;
    }
    run.log(option.onError === 'fail' ? 'error' : 'warn', `pushing rows to the output failed: ${report.error}`);
    if (option.onError === 'fail') {
      outcome.status = 'error';
      outcome.outcome = undefined;
      outcome.result.error = { message: `Pushing the rows to the output failed: ${report.error}` };
    }
    return report;
  }

  /**
   * The result as the final record keeps it: stored apart beyond RESULT_INLINE_MAX_BYTES. A blob store that fails
   * leaves it inline (logged): the run's end is never lost to it.
   */
  async function recordedResult(run: LiveRun, outcome: BrowseOutcome): Promise<RecordedResult> {
    try {
      return await storeResultApart(services.blob, run.executionId, outcome.result, deps.resultInlineMaxBytes ?? DEFAULT_RESULT_INLINE_MAX_BYTES);
    } catch (error) {
      logger.error({ err: error, executionId: run.executionId }, 'storing the large result apart failed: it stays in the execution record');
      return { result: outcome.result };
    }
  }

  /**
   * Ends the run: its final record (fenced: with `token`, the claim's; without, only while the record is queued),
   * then its answer and webhook. When the record refuses (another instance ended the run first), the stored end is
   * the answer.
   */
  async function finalize(run: LiveRun, task: TaskRecord, options: RunOptions, outcome: BrowseOutcome, startedMs?: number, token?: string): Promise<RunAnswer> {
    // Before the push: data that breaks its task's expectations is not pushed (unless they only warn).
    const findings = await checkRunData(store, run, task, outcome, logger, { blob: services.blob, captures: deps.captures });
    const output = await pushIfAsked(run, task, outcome);
    const durationMs = startedMs === undefined ? 0 : Date.now() - startedMs;
    const ended = outcomeOfEnd(outcome);
    deps.metrics.runFinished(outcome.status, startedMs === undefined ? undefined : durationMs / 1000, ended);
    logger.info({ executionId: run.executionId, taskId: task.id, status: outcome.status, outcome: ended, durationMs }, 'run finished');
    const said = ended === outcome.status ? outcome.status : `${outcome.status} (${ended})`;
    run.log(outcome.status === 'success' && ended === 'success' ? 'info' : 'warn', `finished: ${said} in ${durationMs} ms`);
    let answer: RunAnswer = { executionId: run.executionId, taskId: task.id, status: outcome.status, durationMs, result: outcome.result };
    const finishedAt = new Date().toISOString();
    const logs = run.storedLogs();
    const recorded = await recordedResult(run, outcome);
    // The queueing (the job with the run's variables and webhook) is only for going back to the queue: an ended
    // run keeps none of it at rest.
    const written = await finals.write(run.executionId, fenced(token, ({ queueing: _queueing, resultStoredApart: _earlier, ...record }) => ({
      ...record, status: outcome.status, outcome: ended, finishedAt, durationMs, ...recorded, logs, ...(output ? { output } : {}), ...findings,
    }), true), { answer, logs });
    // A large result goes to the webhook as its link (README "Large results"); the waiting caller gets it whole.
    const sent: RunAnswer = recorded.resultStoredApart ? { ...answer, ...recorded } : answer;
    if (written === 'refused') {
      // The blob is this writer's own (a fresh name): the record that stays does not name it.
      if (recorded.resultStoredApart) void services.blob.delete(recorded.resultStoredApart.name).catch(() => undefined);
      const truth = await store.get(run.executionId).catch(() => undefined);
      if (truth) {
        logger.warn({ executionId: run.executionId, status: outcome.status, stored: truth.status }, 'the run had already ended elsewhere: its stored end stays, and is the answer');
        answer = answerOfRecord(truth);
      }
    }
    manager.unregister(run);
    run.finish(answer);
    run.trace.ended(answer.status);
    // Published in the run's trace: the webhook attempts are its spans.
    if (written !== 'refused') context.with(run.trace.context, () => {
      deps.events.ended(answer, ended);
      deps.events.dataFindings(answer, findings);
    });
    if (options.webhookUrl && deps.events.delivers()) {
      // Stored, signed and retried by the webhooks plugin; the execution gets its `webhook` note once settled.
      manager.track(context.with(run.trace.context, () => deps.events.callback(options.webhookUrl!, written === 'refused' ? answer : sent)));
    } else if (options.webhookUrl) {
      // After the answer: the caller never waits for a slow receiver.
      manager.track(deliverWebhook(services.outbound.client, options.webhookUrl, written === 'refused' ? answer : sent, logger, { ...deps.webhook, signal: services.shutdownSignal })
        .then((webhook) => finals.write(run.executionId, fenced(token, (record) => ({ ...record, webhook }), false))));
    }
    return answer;
  }

  /**
   * The claim found the run someone else's, or ended: not run here, and nothing written. Its local followers get
   * the stored end, read in the background (the queue's slot is free at once).
   */
  function leave(run: LiveRun, found: ExecutionRecord | undefined): undefined {
    manager.unregister(run);
    logger.warn({ executionId: run.executionId, status: found?.status }, 'the run is no longer queued: not started here');
    const ended = found && !UNFINISHED.includes(found.status) ? Promise.resolve(found) : recordEnd(store, run.executionId);
    void ended.then((end) => run.finish(end ? answerOfRecord(end) : {
      executionId: run.executionId, taskId: run.taskId, status: 'interrupted', durationMs: 0,
      result: { data: null, captures: [], error: { message: 'The execution was removed before it ended' } },
    }));
    return undefined;
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

  /**
   * Runs the task now (the queue gave it a slot); a run stopped before this point ends with its stop's status.
   * Resolves to its answer; undefined when its claim found it no longer queued (not run here).
   */
  async function perform(run: LiveRun, task: TaskRecord, options: RunOptions, withContext: BrowserPool['withContext']): Promise<RunAnswer | undefined> {
    deps.broadcast.attach(run);
    if (run.signal.aborted) {
      const reason: unknown = run.signal.reason;
      return finalize(run, task, options, notStarted(reason instanceof RunStop ? reason : new RunStop('cancelled', 'Cancelled before it started')));
    }
    const startedMs = Date.now();
    // The instance running it owns it from now on (recovery marks it interrupted if this instance dies), and only
    // this worker's claim may end it.
    const token = newRunToken();
    const claim = await claimRun(store, run.executionId, { token, instanceId: deps.instance.id, startedAt: new Date(startedMs).toISOString() }, run.signal, logger);
    if (!claim.claimed) {
      if ('record' in claim) return leave(run, claim.record);
      const reason: unknown = run.signal.reason;
      const stop = reason instanceof RunStop ? reason : new RunStop('interrupted', `The run could not be started: its storage did not answer (${messageOf(claim.unreachable)})`);
      return finalize(run, task, options, notStarted(stop));
    }
    let outcome: BrowseOutcome;
    try {
      run.setStatus('running');
      run.log('info', 'started');
      deps.events.started(run.executionId, task.id);
      run.trace.started();
      const trace = traceOf(task, options.trace);
      if (trace && !services.browser.traces) run.log('warn', TRACE_NEEDS_PLAYWRIGHT);
      logger.info({ executionId: run.executionId, taskId: task.id, instanceId: deps.instance.id }, 'run started');
      const chooseProxy: BrowseDeps['chooseProxy'] = (t, log, site) => deps.proxyRotation.forTask(proxyOptionsOf(t), { log, site });
      // Mode http: no browser (http-mode/http-run.ts).
      outcome = task.mode === 'http' ? await httpRun({ services, chooseProxy }, { run, task, variables: variablesOf(task, options.variables) }) : await browseRun({
        services, captures: deps.captures, captcha: deps.captcha, pauses: deps.pauses, chooseProxy, healing: deps.healing, files: deps.files,
      }, {
        run, task, variables: variablesOf(task, options.variables), stateless: options.statelessExecution === true, withContext,
        trace: trace && services.browser.traces === true, browserState: runBrowserStateOf(deps.browserStates?.(), task, options),
      });
    } catch (error) {
      logger.error({ err: error, executionId: run.executionId }, 'a run failed unexpectedly');
      outcome = { status: 'error', result: { data: null, captures: [], error: { message: `Internal error: ${messageOf(error)}` } } };
    }
    await noteProxyUse(deps, run, task, outcome, claim.record);
    run.trace.browsed(outcome.status);
    const end = await requeueIfDue(run, claim.record, { run, task, options, withContext }, outcome, token);
    return end && finalize(run, task, options, end, startedMs, token);
  }

  return { perform, finalize, contextSource };
}

export type RunExecution = ReturnType<typeof createRunExecution>;
