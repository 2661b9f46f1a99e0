import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserPool, RetryableRunError } from '../../kernel/contracts/browser-pool.js';
import { settleWithin } from '../../layers/async/settle-within.js';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { ExecutionResult, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ProxyChoice } from '../settings/decorators.js';
import { OutboundBlockedError } from '../../kernel/outbound/index.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/decorators.js';
import { RunStop, type LiveRun } from './live-run.js';
import { ActionError, cleanErrorMessage, runActions, type RunnerHooks, type RunnerOutput } from './runner/index.js';
import { failureShot } from './failure-shot.js';
import { extractionScriptOf, fillUrl, screenshotOnFailureOf, timeoutOf, userAgentOf, viewportOf, type RunnableTask } from './task-options.js';

export interface BrowseDeps {
  services: KernelServices;
  captures: Captures;
  /** `log` is told about rotation members skipped because the outbound rule refuses them. */
  chooseProxy(task: RunnableTask, log?: (message: string) => void): Promise<ProxyChoice | null>;
}

export interface BrowseInput {
  run: LiveRun;
  task: RunnableTask;
  variables: Record<string, unknown>;
  stateless: boolean;
  /** The pool's, or that of the headful session / the browser session the run asked for. */
  withContext: BrowserPool['withContext'];
  /** Record a Playwright trace (the caller checked that the engine can). */
  trace?: boolean;
}

export interface BrowseOutcome {
  status: ExecutionStatus;
  result: ExecutionResult;
  /** A browser grid turned the run's session away before it began (REMOTE_BROWSER_BUSY): it may be queued again. */
  busy?: true;
}

interface PageOutcome {
  output?: RunnerOutput;
  failure?: unknown;
  /** The capture taken when the actions failed. */
  failureShot?: string;
  finalUrl?: string;
  title?: string;
}

const TITLE_WAIT_MS = 2000;

/** The task URL for logs: no query string or credentials (either may hold a secret). */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return 'an invalid URL';
  }
}

// Engine errors lose their call log, colour codes and URL query values (runner/clean-message.ts).
const messageOf = cleanErrorMessage;

/** The URL check a run applies to the task URL and to every navigation of its actions. */
export async function checkNavigation(services: KernelServices, url: string): Promise<void> {
  try {
    await services.outbound.guard.checkUrl(url);
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw new Error(`Navigation to ${safeUrl(url)} was refused: ${error.reason}`);
    throw error;
  }
}

/** Opens the task URL in a fresh context, runs the actions and reads where the page ended up. Never throws. */
export async function browseRun(deps: BrowseDeps, input: BrowseInput): Promise<BrowseOutcome> {
  const { services, captures } = deps;
  const { run, task } = input;
  const saved: string[] = [];
  const failed = (message: string, actionIndex?: number, page: Omit<PageOutcome, 'output' | 'failure' | 'failureShot'> = {}, screenshot?: string): BrowseOutcome => ({
    status: 'error',
    result: {
      data: null, ...page, captures: saved,
      error: { message, ...(actionIndex === undefined ? {} : { actionIndex }), ...(screenshot === undefined ? {} : { screenshot }) },
    },
  });

  const url = fillUrl(task.url, input.variables);
  try {
    await checkNavigation(services, url);
  } catch (error) {
    return failed(`The task URL was refused: ${messageOf(error)}`);
  }
  let proxy: ProxyChoice | null;
  try {
    proxy = await deps.chooseProxy(task, (message) => run.log('warn', message));
  } catch (error) {
    return failed(`Choosing the proxy failed: ${messageOf(error)}`);
  }
  if (proxy) run.log('info', `using proxy ${safeUrl(proxy.server)}`);

  const timeoutMs = timeoutOf(task);
  const videoDir = task.record === true ? await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-video-')) : undefined;
  const traceDir = input.trace ? await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-trace-')) : undefined;
  const saveCapture = async (data: Buffer, ext: 'png' | 'jpg') => {
    const capture = await captures.save(run.executionId, data, ext);
    saved.push(capture.name);
    return capture.name;
  };
  let page: BrowserPage | undefined;
  try {
    const outcome = await input.withContext({
      viewport: viewportOf(task),
      userAgent: userAgentOf(task),
      proxy: proxy ?? undefined,
      keepCookies: !input.stateless,
      recordVideoDir: videoDir,
      ...(traceDir ? { tracePath: path.join(traceDir, 'trace.zip') } : {}),
    }, async (context, signal): Promise<PageOutcome> => {
      page = await context.newPage();
      run.view.open(page);
      run.log('info', `opening ${safeUrl(url)}`);
      try {
        await page.goto(url, timeoutMs);
      } catch (error) {
        if (signal.aborted) throw error;
        throw new Error(`Opening the task URL failed: ${messageOf(error)}`);
      }
      const hooks: RunnerHooks = {
        log: (level, message, actionIndex) => run.log(level, message, actionIndex),
        saveScreenshot: saveCapture,
        checkNavigation: (target) => checkNavigation(services, target),
        actionStarted: (index, type, selector) => run.view.action(index, type, selector),
        signal,
      };
      const result: PageOutcome = {};
      try {
        result.output = await runActions(page, {
          actions: task.actions, variables: input.variables, extractionScript: extractionScriptOf(task), mode: String(task.mode ?? 'agent'),
        }, hooks);
      } catch (error) {
        if (signal.aborted) throw error;
        result.failure = error;
        if (screenshotOnFailureOf(task)) result.failureShot = await shootFailure(page, saveCapture, (why) => run.log('warn', why));
      }
      result.finalUrl = page.url();
      const title = await settleWithin(page.title(), TITLE_WAIT_MS, undefined, () => undefined);
      if (title !== undefined) result.title = title;
      run.view.close(); // before the context closes: viewers stop their screencast on a live page
      return result;
    }, { timeoutMs, signal: run.signal });

    const trace = outcome.tracePath ? await keepTrace(captures, run, outcome.tracePath) : undefined;
    if (trace) run.log('info', `trace saved as ${trace}`);
    if (outcome.videoPath) {
      try {
        saved.push((await captures.adopt(run.executionId, outcome.videoPath, 'webm')).name);
      } catch (error) {
        run.log('warn', `keeping the recording failed: ${messageOf(error)}`);
      }
    }
    let lastUrl: string | undefined;
    try {
      lastUrl = page?.url();
    } catch {
      // the page is gone
    }
    const where = lastUrl && lastUrl !== 'about:blank' ? { finalUrl: lastUrl } : {};

    const ending = (): BrowseOutcome => {
      if (outcome.status === 'ok') {
        const { output, failure, failureShot: screenshot, ...reached } = outcome.value;
        if (failure !== undefined) return failed(messageOf(failure), failure instanceof ActionError ? failure.actionIndex : undefined, reached, screenshot);
        if (output?.stopped) run.log('info', 'stopped by a stop action');
        return { status: 'success', result: { data: output?.data ?? null, ...reached, captures: saved } };
      }
      if (outcome.status === 'timeout') {
        return { status: 'timeout', result: { data: null, ...where, captures: saved, error: { message: `The run did not finish within ${timeoutMs} ms` } } };
      }
      if (outcome.status === 'aborted') {
        const reason: unknown = run.signal.reason;
        const stop = reason instanceof RunStop ? reason : new RunStop('interrupted', 'The service stopped while the run was in progress');
        return { status: stop.status, result: { data: null, ...where, captures: saved, error: { message: stop.message } } };
      }
      const error = outcome.error;
      if (!page && (error as RetryableRunError).code === 'REMOTE_BROWSER_BUSY') return { ...failed(messageOf(error)), busy: true };
      return failed(page ? messageOf(error) : `The browser could not open the page: ${messageOf(error)}`,
        error instanceof ActionError ? error.actionIndex : undefined, where);
    };
    const ended = ending();
    if (trace) ended.result.trace = trace;
    return ended;
  } finally {
    for (const dir of [videoDir, traceDir]) if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The failure screenshot, saved as the run's next capture; undefined (with a warn) when none could be had. */
async function shootFailure(page: BrowserPage, save: (data: Buffer, ext: 'png') => Promise<string>, warn: (why: string) => void): Promise<string | undefined> {
  const png = await failureShot(page, (why) => warn(`no screenshot of the failure: ${why}`));
  if (!png) return undefined;
  return save(png, 'png').catch((error: unknown) => {
    warn(`keeping the screenshot of the failure failed: ${messageOf(error)}`);
    return undefined;
  });
}

/** Moves the trace file in as the run's capture (`<executionId>_<n>.zip`); undefined (with a warn) when it fails. */
async function keepTrace(captures: Captures, run: LiveRun, tracePath: string): Promise<string | undefined> {
  try {
    return (await captures.adopt(run.executionId, tracePath, 'zip')).name;
  } catch (error) {
    run.log('warn', `keeping the trace failed: ${messageOf(error)}`);
    return undefined;
  }
}
