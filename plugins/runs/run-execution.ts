import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import { browseRun, type BrowseOutcome } from './browse-run.js';
import type { FinalRecords } from './final-records.js';
import { RunStop, type LiveRun, type RunAnswer } from './live-run.js';
import { pushOutput, type OutputReport } from './output-push.js';
import type { RunManager } from './run-manager.js';
import type { RunOptions, RunServiceDeps } from './run-service.js';
import { outputOf, proxyOptionsOf, variablesOf } from './task-options.js';
import { deliverWebhook } from './webhook.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A run that ends before it started (cancelled while queued, stopped at shutdown): its outcome. */
export const notStarted = (stop: RunStop): BrowseOutcome => ({ status: stop.status, result: { data: null, captures: [], error: { message: stop.message } } });

/**
 * Runs one run in this process once the queue handed it over (`perform`), and ends any run of this process with
 * its final record, answer, output push and webhook (`finalize`).
 */
export function createRunExecution(deps: RunServiceDeps & { manager: RunManager }, finals: FinalRecords) {
  const { services, manager, logger } = deps;
  const save = (executionId: string, change: Parameters<FinalRecords['write']>[1]) => finals.write(executionId, change);

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

  async function finalize(run: LiveRun, task: TaskRecord, options: RunOptions, outcome: BrowseOutcome, startedMs?: number): Promise<RunAnswer> {
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
    return answer;
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

  /** Runs the task now (the queue gave it a slot); a run stopped before this point ends with its stop's status. */
  async function perform(run: LiveRun, task: TaskRecord, options: RunOptions, withContext: BrowserPool['withContext']): Promise<RunAnswer> {
    if (run.signal.aborted) {
      const reason: unknown = run.signal.reason;
      return finalize(run, task, options, notStarted(reason instanceof RunStop ? reason : new RunStop('cancelled', 'Cancelled before it started')));
    }
    const startedMs = Date.now();
    let outcome: BrowseOutcome;
    try {
      run.setStatus('running');
      run.log('info', 'started');
      logger.info({ executionId: run.executionId, taskId: task.id, instanceId: deps.instance.id }, 'run started');
      const startedAt = new Date(startedMs).toISOString();
      // The instance running it owns it from now on (recovery marks it interrupted if this instance dies).
      await finals.write(run.executionId, (record) => ({ ...record, status: 'running', startedAt, instanceId: deps.instance.id }), undefined, true);
      outcome = await browseRun({
        services, captures: deps.captures,
        chooseProxy: (t, log) => deps.proxyRotation.forTask(proxyOptionsOf(t), { log }),
      }, { run, task, variables: variablesOf(task, options.variables), stateless: options.statelessExecution === true, withContext });
    } catch (error) {
      logger.error({ err: error, executionId: run.executionId }, 'a run failed unexpectedly');
      outcome = { status: 'error', result: { data: null, captures: [], error: { message: `Internal error: ${messageOf(error)}` } } };
    }
    return finalize(run, task, options, outcome, startedMs);
  }

  return { perform, finalize, contextSource };
}

export type RunExecution = ReturnType<typeof createRunExecution>;
