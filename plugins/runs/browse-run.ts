import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserPool, RetryableRunError } from '../../kernel/contracts/browser-pool.js';
import { settleWithin } from '../../layers/async/settle-within.js';
import type { BrowserPage, BrowserStorageState } from '../../kernel/contracts/browser.js';
import { checkEngineTakesStates, openRunState, saveRunState, type RunBrowserState } from './run-browser-state.js';
import type { ExecutionOutcome, ExecutionResult, ExecutionStatus } from '../../kernel/contracts/records.js';
import { BrowserDisconnectedError, RunResourceError } from '../../layers/browser-pool/pool-errors.js';
import { wallOf, type AntiBotFinding } from '../../layers/outcomes/anti-bot-rules.js';
import type { ProxyChoice } from '../settings/decorators.js';
import { OutboundBlockedError } from '../../kernel/outbound/index.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/decorators.js';
import { RunStop, type LiveRun } from './live-run.js';
import { ActionError, cleanErrorMessage, runActions, type RunnerHooks, type RunnerOutput } from './runner/index.js';
import { failureShot } from './failure-shot.js';
import { passCaptchaWall } from './captcha-wall.js';
import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';
import { detectSecondFactor } from '../../layers/outcomes/second-factor.js';
import { PauseExpiredError, type HumanPauses, type PauseRequest } from './human-pause.js';
import { RunClock } from './run-clock.js';
import { antiBotOf, extractionScriptOf, fillUrl, screenshotOnFailureOf, timeoutOf, userAgentOf, viewportOf, type RunnableTask } from './task-options.js';
import type { RunHealing } from './healing/run-healing.js';
import { runFileHooks, takesDownloads, type RunFiles } from './run-files.js';

export interface BrowseDeps {
  services: KernelServices;
  captures: Captures;
  /** `log` is told about rotation members skipped (refused by the outbound rule, or blocked for `site`). */
  chooseProxy(task: RunnableTask, log?: (message: string) => void, site?: string): Promise<ProxyChoice | null>;
  /** The configured CAPTCHA solver (CAPTCHA_SOLVER), for tasks that ask to solve widgets; null: none. */
  captcha?: CaptchaSolver | null;
  /** Fingerprints and selector repairs (README "Healing"); absent: neither. */
  healing?: RunHealing;
  /** Where a run waits for a person (human-pause.ts); absent: it cannot (a pause_for_human action fails). */
  pauses?: HumanPauses;
  /** Task files and the download limit; absent: upload and download actions fail. */
  files?: RunFiles;
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
  /** The named browser state it starts from (instead of the cookie jar) and the one it saves (run-browser-state.ts). */
  browserState?: RunBrowserState;
}

export interface BrowseOutcome {
  status: ExecutionStatus;
  result: ExecutionResult;
  /** A browser grid turned the run's session away before it began (REMOTE_BROWSER_BUSY): it may be queued again. */
  busy?: true;
  /** How it ended when that says more than `status` (stopped, crashed, anti_bot); absent: the status's own. */
  outcome?: ExecutionOutcome;
  /** The bot wall that ended it (outcome anti_bot). */
  wall?: AntiBotFinding;
  /** The proxy the run went through (null: none), once one was chosen. */
  proxy?: ProxyChoice | null;
  /** The task URL's host (where a wall blocks the proxy). */
  site?: string;
  /** The screenshots the screenshot actions took, in order (a `foreach` may repeat an action). */
  shots?: Array<{ actionIndex: number; capture: string }>;
  /** Set after the run (proxy-blocks.ts): it goes back to the queue for another proxy, `max` times at most. */
  proxyRetry?: { max: number };
}

/** True when the run ended because its page or the browser died (outcome crashed), not for a too-large response. */
const diedBy = (error: unknown): boolean => (error instanceof RunResourceError && error.pageDied) || error instanceof BrowserDisconnectedError;

interface PageOutcome {
  output?: RunnerOutput;
  failure?: unknown;
  /** The capture taken when the actions failed or met a wall. */
  failureShot?: string;
  /** A bot wall found on the page (the actions do not run past it). */
  wall?: AntiBotFinding;
  finalUrl?: string;
  title?: string;
  /** AI provider calls the healing made (0: none, left out of the result). */
  aiCalls?: number;
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

/** The host of a URL, lower-case; undefined for no URL. */
function siteOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

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
  const shots: Array<{ actionIndex: number; capture: string }> = [];
  let actionNow = -1;
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
    proxy = await deps.chooseProxy(task, (message) => run.log('warn', message), siteOf(url));
  } catch (error) {
    return failed(`Choosing the proxy failed: ${messageOf(error)}`);
  }
  if (proxy) run.log('info', `using proxy ${safeUrl(proxy.server)}`);
  const chosenState = input.browserState;
  let storageState: BrowserStorageState | undefined;
  try {
    storageState = chosenState && await openRunState(chosenState);
  } catch (error) {
    return failed(`Loading the browser state ${chosenState?.use} failed: ${messageOf(error)}`);
  }
  if (storageState) run.log('info', `starting from browser state ${chosenState?.use}`);

  const timeoutMs = timeoutOf(task);
  const antiBot = antiBotOf(task);
  // A run that may wait for a person keeps its own clock, held while it waits; any other keeps the pool's timer.
  const mayPause = deps.pauses !== undefined && (antiBot.pauseOnWall || antiBot.pauseOnSecondFactor
    || (Array.isArray(task.actions) && task.actions.some((action) => action.type === 'pause_for_human' && !action.disabled)));
  const clock = mayPause ? new RunClock(timeoutMs, run.signal) : undefined;
  const videoDir = task.record === true ? await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-video-')) : undefined;
  const traceDir = input.trace ? await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-trace-')) : undefined;
  const saveCapture = async (data: Buffer, ext: 'png' | 'jpg') => {
    const capture = await run.trace.step('capture', () => captures.save(run.executionId, data, ext));
    saved.push(capture.name);
    return capture.name;
  };
  const fileHooks = runFileHooks(deps.files, captures, task, run, saved);
  let page: BrowserPage | undefined;
  try {
    run.trace.acquiring();
    const outcome = await input.withContext({
      viewport: viewportOf(task),
      userAgent: userAgentOf(task),
      proxy: proxy ?? undefined,
      // A named state replaces the cookie jar: it is neither read nor written.
      keepCookies: !input.stateless && storageState === undefined,
      ...(storageState ? { storageState } : {}),
      recordVideoDir: videoDir,
      ...(traceDir ? { tracePath: path.join(traceDir, 'trace.zip') } : {}),
      ...(takesDownloads(task) ? { acceptDownloads: true } : {}),
    }, async (context, signal): Promise<PageOutcome> => {
      run.trace.acquired();
      if (chosenState) checkEngineTakesStates(context);
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
          const capture = await saveCapture(data, ext);
          shots.push({ actionIndex: actionNow, capture });
          return capture;
        },
        checkNavigation: (target) => checkNavigation(services, target),
        ...fileHooks,
        actionStarted: (index, type, selector) => { actionNow = index; run.view.action(index, type, selector); run.trace.action(index, type); },
        signal,
      };
      const result: PageOutcome = {};
      const opened = page;
      /** Hands the page to a person until resumed; rejects PauseExpiredError when no one did in time. */
      const pauseFor = async (request: Omit<PauseRequest, 'timeoutMs'> & { timeoutMs?: number }) => {
        if (!deps.pauses || !clock) throw new Error('a run here cannot be handed to a person');
        clock.hold();
        try {
          await deps.pauses.wait(run, { ...request, timeoutMs: request.timeoutMs ?? antiBot.pauseMs }, signal);
        } finally {
          clock.release();
        }
      };
      let promptUrl: string | undefined; // a second-factor prompt pauses once per page address
      const secondFactorNow = async () => {
        if (!antiBot.pauseOnSecondFactor || signal.aborted) return;
        const where = opened.url();
        if (where === promptUrl) return;
        const prompt = await detectSecondFactor(opened);
        if (!prompt) return;
        promptUrl = where;
        run.log('info', `second-factor prompt: ${prompt.detail} (rule ${prompt.rule})`);
        await pauseFor({ reason: 'second_factor', message: 'The site asks for a one-time code: enter it in the page, then press Resume' });
      };
      hooks.pauseForHuman = (message, pauseMs) => pauseFor({ reason: 'action', message, ...(pauseMs ? { timeoutMs: pauseMs } : {}) });
      if (antiBot.pauseOnSecondFactor) hooks.actionEnded = () => secondFactorNow();
      // A wall right after opening ends the run there; after the actions (or where one failed) it is the end's reason.
      const look = (strictWidget: boolean) => wallOf(opened, { waitMs: antiBot.waitMs, strictWidget, signal });
      const wallNow = async (strictWidget: boolean) => {
        if (!antiBot.detect || signal.aborted) return undefined;
        const wall = await look(strictWidget);
        const found = !wall?.captcha || !antiBot.solveCaptcha ? wall
          : await passCaptchaWall(opened, wall, deps.captcha, signal, (level, message) => run.log(level, message), () => look(strictWidget));
        if (!found || !antiBot.pauseOnWall || !clock) return found;
        run.log('warn', `bot wall: ${found.detail} (rule ${found.rule}); the run waits for a person`);
        await pauseFor({ reason: 'anti_bot', message: `The site put up a bot wall (${found.detail}): pass it in the page, then press Resume` });
        return look(strictWidget);
      };
      const healing = await deps.healing?.forRun(task, {
        executionId: run.executionId, log: (level, message, actionIndex) => run.log(level, message, actionIndex), saveCapture, signal,
      });
      if (healing) hooks.healing = healing.hooks;
      try {
        result.wall = await wallNow(true);
        if (!result.wall) {
          await secondFactorNow();
          try {
            result.output = await runActions(page, {
              actions: task.actions, variables: input.variables, extractionScript: extractionScriptOf(task), mode: String(task.mode ?? 'agent'),
            }, hooks);
          } catch (error) {
            if (signal.aborted) throw error;
            result.failure = error;
          }
          if (!expiredPause(result.failure)) result.wall = await wallNow(result.failure === undefined);
        }
      } catch (error) {
        if (!(error instanceof PauseExpiredError) || signal.aborted) throw error;
        result.failure = error;
      }
      if (result.wall) run.log('warn', `bot wall: ${result.wall.detail} (rule ${result.wall.rule})`);
      if ((result.failure !== undefined || result.wall) && screenshotOnFailureOf(task)) {
        result.failureShot = await shootFailure(page, saveCapture, (why) => run.log('warn', why));
      }
      if (healing) result.aiCalls = (await healing.finish(result.failure === undefined && !result.wall)).aiCalls;
      result.finalUrl = page.url();
      const title = await settleWithin(page.title(), TITLE_WAIT_MS, undefined, () => undefined);
      if (title !== undefined) result.title = title;
      if (chosenState?.saveAs && result.failure === undefined && !result.wall && !signal.aborted) {
        const problem = await saveRunState(chosenState, context, run.executionId);
        run.log(problem ? 'warn' : 'info', problem ? `saving browser state ${chosenState.saveAs} failed: ${problem}` : `browser state ${chosenState.saveAs} saved`);
      }
      run.view.close(); // before the context closes: viewers stop their screencast on a live page
      return result;
    }, clock ? { signal: clock.signal } : { timeoutMs, signal: run.signal });

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
        const { output, failure, failureShot: screenshot, wall, aiCalls, ...found } = outcome.value;
        // Provider calls are written only when there were some: a run that matched every selector made none.
        const reached = aiCalls ? { ...found, aiCalls } : found;
        const expired = expiredPause(failure);
        if (expired) {
          return { ...failed(expired.message, failure instanceof ActionError ? failure.actionIndex : undefined, reached, screenshot), outcome: 'stopped' };
        }
        if (wall) {
          const where = failure instanceof ActionError ? failure.actionIndex : undefined;
          return { ...failed(`The site put up a bot wall: ${wall.detail}`, where, reached, screenshot), outcome: 'anti_bot', wall };
        }
        if (failure !== undefined) return failed(messageOf(failure), failure instanceof ActionError ? failure.actionIndex : undefined, reached, screenshot);
        const done: BrowseOutcome = { status: 'success', result: { data: output?.data ?? null, ...reached, captures: saved }, shots };
        if (output?.stopped) run.log('info', 'stopped by a stop action');
        return output?.stopped ? { ...done, outcome: 'stopped' } : done;
      }
      if (outcome.status === 'timeout' || (outcome.status === 'aborted' && clock?.expired)) {
        return { status: 'timeout', result: { data: null, ...where, captures: saved, error: { message: `The run did not finish within ${timeoutMs} ms` } } };
      }
      if (outcome.status === 'aborted') {
        const reason: unknown = run.signal.reason;
        const stop = reason instanceof RunStop ? reason : new RunStop('interrupted', 'The service stopped while the run was in progress');
        return { status: stop.status, result: { data: null, ...where, captures: saved, error: { message: stop.message } } };
      }
      const error = outcome.error;
      if (!page && (error as RetryableRunError).code === 'REMOTE_BROWSER_BUSY') return { ...failed(messageOf(error)), busy: true };
      const failure = failed(page ? messageOf(error) : `The browser could not open the page: ${messageOf(error)}`,
        error instanceof ActionError ? error.actionIndex : undefined, where);
      return diedBy(error) ? { ...failure, outcome: 'crashed' } : failure;
    };
    const ended = ending();
    ended.proxy = proxy;
    ended.site = siteOf(url);
    if (trace) ended.result.trace = trace;
    return ended;
  } finally {
    clock?.stop();
    for (const dir of [videoDir, traceDir]) if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The expired pause a failure comes from (outcome stopped), if it does. */
function expiredPause(failure: unknown): PauseExpiredError | undefined {
  if (failure instanceof PauseExpiredError) return failure;
  return failure instanceof ActionError && failure.cause instanceof PauseExpiredError ? failure.cause : undefined;
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
