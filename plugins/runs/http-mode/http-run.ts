import type { Dispatcher } from 'undici';
import { OutboundBlockedError, OutboundRequestError } from '../../../kernel/outbound/index.js';
import type { KernelServices } from '../../../kernel/services.js';
import { extractHtml } from '../../../layers/field-mapping/extract-html.js';
import { extractionProblems } from '../../../layers/field-mapping/task-rules.js';
import type { ProxyChoice } from '../../settings/decorators.js';
import { safeUrl, type BrowseOutcome } from '../browse-run.js';
import { RunStop, type LiveRun } from '../live-run.js';
import { cleanErrorMessage } from '../runner/index.js';
import { extractOf, fillUrl, timeoutOf, userAgentOf, type RunnableTask } from '../task-options.js';
import { fetchPage } from './fetch-page.js';
import { proxyDispatcher } from './proxy-dispatcher.js';

export interface HttpRunDeps {
  services: KernelServices;
  chooseProxy(task: RunnableTask, log?: (message: string) => void, site?: string): Promise<ProxyChoice | null>;
}

export interface HttpRunInput {
  run: LiveRun;
  task: RunnableTask;
  variables: Record<string, unknown>;
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
};

/**
 * A run of a task in mode http (README "Browserless mode"): one GET of the task URL through the outbound client
 * (and the task's proxy), its field mapping applied to the HTML with cheerio. No browser, no script of the page or
 * the user. Ends like a browser run (status, result with data, finalUrl and title, logs). Never throws.
 */
export async function httpRun(deps: HttpRunDeps, input: HttpRunInput): Promise<BrowseOutcome> {
  const { run, task } = input;
  const failed = (message: string): BrowseOutcome => ({ status: 'error', result: { data: null, captures: [], error: { message } } });
  // A task saved before these rules, or imported, meets them here.
  const problems = await extractionProblems(task);
  if (problems.length > 0) return failed(`The task cannot run in mode http: ${problems.join('; ')}`);

  const url = fillUrl(task.url, input.variables);
  const site = hostOf(url);
  let proxy: ProxyChoice | null = null;
  let dispatcher: Dispatcher | undefined;
  try {
    proxy = await deps.chooseProxy(task, (message) => run.log('warn', message), site);
    if (proxy) {
      dispatcher = await proxyDispatcher(deps.services.outbound.guard, proxy);
      run.log('info', `using proxy ${safeUrl(proxy.server)}`);
    }
  } catch (error) {
    return { ...failed(`Choosing the proxy failed: ${cleanErrorMessage(error)}`), proxy };
  }
  const timeoutMs = timeoutOf(task);
  const ended = (outcome: BrowseOutcome): BrowseOutcome => ({ ...outcome, proxy, ...(site ? { site } : {}) });
  try {
    run.log('info', `fetching ${safeUrl(url)} (mode http: no browser)`);
    const page = await run.trace.step('http fetch', () => fetchPage(deps.services.outbound.client, url, {
      timeoutMs, signal: run.signal, userAgent: userAgentOf(task), dispatcher,
    }));
    run.log('info', `HTTP ${page.status}, ${page.html.length} characters`);
    const mapping = extractOf(task);
    const { data, title } = await extractHtml(page.html, page.finalUrl, mapping);
    if (mapping) run.log('info', `field mapping: ${Array.isArray(data) ? `${data.length} rows` : 'one row'}`);
    return ended({ status: 'success', result: { data, finalUrl: page.finalUrl, ...(title ? { title } : {}), captures: [] } });
  } catch (error) {
    if (run.signal.aborted) {
      const reason: unknown = run.signal.reason;
      const stop = reason instanceof RunStop ? reason : new RunStop('interrupted', 'The service stopped while the run was in progress');
      return ended({ status: stop.status, result: { data: null, captures: [], error: { message: stop.message } } });
    }
    if ((error instanceof OutboundRequestError && error.timedOut) || (error instanceof Error && error.name === 'TimeoutError')) {
      return ended({ status: 'timeout', result: { data: null, captures: [], error: { message: `The run did not finish within ${timeoutMs} ms` } } });
    }
    if (error instanceof OutboundBlockedError) return ended(failed(`The task URL was refused: Navigation to ${safeUrl(url)} was refused: ${error.reason}`));
    return ended(failed(`Fetching the page failed: ${withCause(error)}`));
  } finally {
    await (dispatcher as { close?: () => Promise<void> } | undefined)?.close?.().catch(() => undefined);
  }
}

/** fetch says only "fetch failed": the cause (refused connection, proxy answer) is what tells the user why. */
function withCause(error: unknown): string {
  const message = cleanErrorMessage(error);
  const cause = error instanceof Error && error.cause instanceof Error ? cleanErrorMessage(error.cause) : undefined;
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
