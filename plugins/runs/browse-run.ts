import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserPool } from '../../kernel/contracts/browser-pool.js';
import { settleWithin } from './settle-within.js';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { ExecutionResult, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ProxyChoice } from '../settings/decorators.js';
import { OutboundBlockedError } from '../../kernel/outbound/index.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/decorators.js';
import { RunStop, type LiveRun } from './live-run.js';
import { ActionError, cleanErrorMessage, runActions, type RunnerHooks, type RunnerOutput } from './runner/index.js';
import { extractionScriptOf, fillUrl, timeoutOf, userAgentOf, viewportOf, type RunnableTask } from './task-options.js';

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
}

export interface BrowseOutcome {
  status: ExecutionStatus;
  result: ExecutionResult;
}

interface PageOutcome {
  output?: RunnerOutput;
  failure?: unknown;
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
  const failed = (message: string, actionIndex?: number, page: Omit<PageOutcome, 'output' | 'failure'> = {}): BrowseOutcome => ({
    status: 'error',
    result: { data: null, ...page, captures: saved, error: actionIndex === undefined ? { message } : { message, actionIndex } },
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
  let page: BrowserPage | undefined;
  try {
    const outcome = await input.withContext({
      viewport: viewportOf(task),
      userAgent: userAgentOf(task),
      proxy: proxy ?? undefined,
      keepCookies: !input.stateless,
      recordVideoDir: videoDir,
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
        saveScreenshot: async (data, ext) => {
          const capture = await captures.save(run.executionId, data, ext);
          saved.push(capture.name);
          return capture.name;
        },
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
      }
      result.finalUrl = page.url();
      const title = await settleWithin(page.title(), TITLE_WAIT_MS, undefined, () => undefined);
      if (title !== undefined) result.title = title;
      run.view.close(); // before the context closes: viewers stop their screencast on a live page
      return result;
    }, { timeoutMs, signal: run.signal });

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

    if (outcome.status === 'ok') {
      const { output, failure, ...reached } = outcome.value;
      if (failure !== undefined) {
        return failed(messageOf(failure), failure instanceof ActionError ? failure.actionIndex : undefined, reached);
      }
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
    return failed(page ? messageOf(error) : `The browser could not open the page: ${messageOf(error)}`,
      error instanceof ActionError ? error.actionIndex : undefined, where);
  } finally {
    if (videoDir) await fs.rm(videoDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
