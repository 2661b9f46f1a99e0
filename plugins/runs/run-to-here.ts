import { actionLabel } from '../../layers/action-label/action-label.js';
import type { ExecutionLogLine, RunToHereAnswer } from '../../kernel/contracts/records.js';
import type { KernelServices } from '../../kernel/services.js';
import type { ProxyChoice } from '../settings/decorators.js';
import { checkNavigation, safeUrl } from './browse-run.js';
import { failureShot } from './failure-shot.js';
import type { RunView } from './run-view.js';
import { checkTaskUrl } from './page-capture.js';
import { ActionError, cleanErrorMessage, runActions, type RunnerWatch } from './runner/index.js';
import { settleWithin } from '../../layers/async/settle-within.js';
import { fillUrl, timeoutOf, userAgentOf, variablesOf, viewportOf, type RunnableTask } from './task-options.js';

export interface RunToHereInput {
  /** The task as the editor holds it (saved or not). */
  task: RunnableTask;
  /** The last action to run (0-based); the run ends the first time an action after it would run. */
  actionIndex: number;
  /** Over the task's variables, as a run's. */
  variables?: Record<string, unknown>;
  /** Aborted when the caller stops it (closes the request). */
  signal: AbortSignal;
  /** Told of the page and of each action, for a live view (closed before the context closes). */
  view?: RunView;
}


export interface RunToHereDeps {
  services: KernelServices;
  chooseProxy(task: RunnableTask): Promise<ProxyChoice | null>;
}

const TITLE_WAIT_MS = 2000;

/**
 * Runs a task's actions up to one of them in a fresh, stateless context (no stored cookies read or written, no
 * captures kept, no execution stored) and answers what the page, the variables and the log are then. 400 for a task
 * URL the outbound rule refuses; everything else (a failing action, the task's time limit, a stop) is the answer.
 */
export async function runToHere(deps: RunToHereDeps, input: RunToHereInput): Promise<RunToHereAnswer> {
  const { services } = deps;
  const { task, actionIndex } = input;
  const started = Date.now();
  const variables = variablesOf(task, input.variables);
  const url = fillUrl(task.url, variables);
  await checkTaskUrl(services, url);
  const proxy = await deps.chooseProxy(task);
  const logs: ExecutionLogLine[] = [];
  const log = (level: ExecutionLogLine['level'], message: string, index?: number) =>
    void logs.push({ at: new Date().toISOString(), level, message, ...(index === undefined ? {} : { actionIndex: index }) });
  const watch: RunnerWatch = {};
  const answer: Omit<RunToHereAnswer, 'status' | 'durationMs'> = { actionIndex, variables, logs };
  const timeoutMs = timeoutOf(task);

  const outcome = await services.browser.withContext({
    viewport: viewportOf(task), userAgent: userAgentOf(task), proxy: proxy ?? undefined, keepCookies: false,
  }, async (context, signal) => {
    const page = await context.newPage();
    input.view?.open(page);
    log('info', `opening ${safeUrl(url)}`);
    try {
      await page.goto(url, timeoutMs);
      await runActions(page, { actions: task.actions, variables, mode: 'agent', stopAfter: actionIndex, watch }, {
        log, saveScreenshot: async () => '', checkNavigation: (target) => checkNavigation(services, target), signal,
        actionStarted: (index, type, selector) => input.view?.action(index, type, selector),
      });
      log('info', `run to here: stopped after ${actionLabel(actionIndex)}`);
    } catch (error) {
      if (signal.aborted) throw error;
      const message = cleanErrorMessage(error);
      answer.error = error instanceof ActionError ? { message, actionIndex: error.actionIndex } : { message: `Opening the task URL failed: ${message}` };
    }
    const png = await failureShot(page, (why) => log('warn', `no screenshot: ${why}`));
    if (png) answer.screenshot = `data:image/png;base64,${png.toString('base64')}`;
    answer.finalUrl = page.url();
    const title = await settleWithin(page.title(), TITLE_WAIT_MS, undefined, () => undefined);
    if (title !== undefined) answer.title = title;
    input.view?.close(); // before the context closes: viewers stop their screencast on a live page
  }, { timeoutMs, signal: input.signal });

  if (watch.variables) answer.variables = watch.variables;
  if (watch.output) answer.output = watch.output.value;
  const durationMs = Date.now() - started;
  if (outcome.status === 'ok') return { status: answer.error ? 'error' : 'success', durationMs, ...answer };
  if (outcome.status === 'timeout') return { status: 'timeout', durationMs, ...answer, error: { message: `Did not finish within ${timeoutMs} ms` } };
  if (outcome.status === 'aborted') return { status: 'cancelled', durationMs, ...answer, error: { message: 'Stopped on request' } };
  return { status: 'error', durationMs, ...answer, error: { message: `The browser could not open the page: ${cleanErrorMessage(outcome.error)}` } };
}
