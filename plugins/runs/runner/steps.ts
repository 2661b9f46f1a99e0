// The actions that drive the page. Decisions:
// - Default limits (ms): navigate 30000; click, hover, type, press, wait_selector, scroll and the foreach
//   element query 10000; javascript, if and screenshot 30000. An action's `timeoutMs` replaces the default;
//   0 means no limit of its own (the run's limit still applies). `wait` takes no limit: it is its own.
// - The engines time their primitives themselves (their message names what was awaited); the runner adds
//   a backstop a little later, and is the only clock for page scripts, screenshots and plain key presses.
// - navigate: `value` may be relative to the current page; only http(s) is visited, and only after
//   `checkNavigation` agreed. (Links the page follows by itself are the caller's to police.)
// - type appends to what the field holds: the field is not cleared, and the caret is put at its end first
//   (press on a selector too), so both engines insert in the same place.
// - scroll: with a selector, its first match is scrolled to the middle of the viewport (after it became
//   visible); without one, the page scrolls by `value` pixels (negative: up; empty: one viewport height).
// - screenshot: png, the viewport, or the full page when `value` is `full` (any case).
// - The actions added later, and `frame`, are in web-steps.ts.
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import { cleanMessage } from './clean-message.js';
import { runGetContent } from './content-step.js';
import { guard, sleep, timedOut } from './guard.js';
import { CARET_AT_END, SCROLL_BY, SCROLL_INTO_VIEW, userCode } from './page-scripts.js';
import { FILE_TIMEOUTS, isFileStep, runFileStep } from './file-steps.js';
import { InvalidUrlError, type RunnerHooks } from './types.js';
import { BACKSTOP_MS, WEB_TIMEOUTS, markNavigations, native as nativeWithin, runWebStep, withFrame } from './web-steps.js';

export const DEFAULT_TIMEOUTS: Readonly<Record<string, number>> = {
  navigate: 30_000, click: 10_000, hover: 10_000, type: 10_000, press: 10_000, wait_selector: 10_000,
  scroll: 10_000, foreach: 10_000, javascript: 30_000, if: 30_000, screenshot: 30_000, ...WEB_TIMEOUTS, ...FILE_TIMEOUTS,
  get_content: 10_000,
};
const MAX_WAIT_MS = 2_147_483_647; // setTimeout's ceiling

/** An action with its placeholders filled (code too, as raw text). */
export interface Step {
  type: string;
  selector?: string;
  value?: string;
  key?: string;
  /** drag_and_drop's element to drop onto. */
  target?: string;
  /** iframe selectors, outermost first, separated by `>>` (web-steps.ts). */
  frame?: string;
  /** 0: no limit of its own. */
  timeoutMs: number;
}

export interface StepEnv {
  page: BrowserPage;
  hooks: RunnerHooks;
  /** What page code receives as `args`: `{ vars, loop }`. */
  args: Record<string, unknown>;
}

export interface StepResult {
  /** Set by actions that have an output (javascript). */
  output?: unknown;
  hasOutput?: boolean;
  capture?: string;
}

export function timeoutFor(type: string, timeoutMs: number | undefined): number {
  return typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs >= 0 ? timeoutMs : DEFAULT_TIMEOUTS[type] ?? 0;
}

/** Runs `body` in the page with `args`, within `ms` (0: no own limit); `what` names it in a timeout. */
export function evaluateWithin(env: StepEnv, body: string, args: Record<string, unknown>, ms: number, what: string): Promise<unknown> {
  return guard(env.page.evaluate(body, args), env.hooks.signal, ms, () => timedOut(what, ms));
}

export async function runPageStep(step: Step, outer: StepEnv): Promise<StepResult> {
  markNavigations(step, outer.page);
  const env = await withFrame(step, outer);
  const { page, hooks } = env;
  const t = step.timeoutMs;
  const selector = step.selector ?? '';
  /** A primitive the engine times itself: the runner's clock is only a backstop. */
  const native = (work: Promise<void>, what: string) => nativeWithin(env, t, work, what);
  if (isFileStep(step.type)) return runFileStep(step, env, native);
  switch (step.type) {
    case 'navigate': {
      const url = absoluteUrl(step.value ?? '', page.url());
      await guard(hooks.checkNavigation(url), hooks.signal); // its refusal is the action's error, as worded
      await native(page.goto(url, t), `navigation to ${url}`);
      return {};
    }
    case 'click': await native(page.click(selector, t), `selector "${selector}" to click`); return {};
    case 'hover': await native(page.hover(selector, t), `selector "${selector}" to hover`); return {};
    case 'type':
      await caretAtEnd(env, selector, t);
      await native(page.type(selector, step.value ?? '', t), `selector "${selector}" to type into`);
      return {};
    case 'wait_selector': await native(page.waitForSelector(selector, t), `selector "${selector}" to be visible`); return {};
    case 'press': {
      const on = selector === '' ? undefined : selector;
      const what = on ? `selector "${on}" to press ${step.key} on` : `key ${step.key} to be pressed`;
      if (on) await caretAtEnd(env, on, t);
      await guard(page.press(step.key ?? '', on, t), hooks.signal, t && (on ? t + BACKSTOP_MS : t), () => timedOut(what, t));
      return {};
    }
    case 'wait':
      await sleep(waitMs(step.value ?? ''), hooks.signal);
      return {};
    case 'scroll':
      if (selector !== '') {
        await native(page.waitForSelector(selector, t), `selector "${selector}" to be visible`);
        await evaluateWithin(env, SCROLL_INTO_VIEW, { selector }, t, `selector "${selector}" to scroll into view`);
      } else {
        await evaluateWithin(env, SCROLL_BY, { pixels: scrollPixels(step.value ?? '') }, t, 'the page to scroll');
      }
      return {};
    case 'javascript': {
      const output = await evaluateWithin(env, userCode(step.value ?? ''), env.args, t, 'the script to return');
      return { output, hasOutput: true };
    }
    case 'screenshot': {
      const fullPage = step.value?.trim().toLowerCase() === 'full';
      const png = await guard(page.screenshot({ fullPage, type: 'png' }), hooks.signal, t, () => timedOut('the screenshot', t));
      return { capture: await guard(hooks.saveScreenshot(png, 'png'), hooks.signal) };
    }
    case 'get_content': return runGetContent(step, env);
    default:
      await runWebStep(step, env);
      return {};
  }
}

/**
 * Focuses the field with the caret at the end. A field that is already there and visible (the usual case) takes
 * one page call; otherwise it is first waited for as the engine would. Waiting first every time cost a run tens
 * of milliseconds: Playwright's `waitForSelector` loads its selector engine into the page's main world.
 */
async function caretAtEnd(env: StepEnv, selector: string, t: number): Promise<void> {
  // Until the field was seen visible, that is what the action waits for, whichever call the time ran out in.
  const visible = `selector "${selector}" to be visible`;
  const first = await evaluateWithin(env, CARET_AT_END, { selector, whenVisible: true }, t, visible);
  if (first === 'focused') return;
  await nativeWithin(env, t, env.page.waitForSelector(selector, t), visible);
  if (first === 'wait') await evaluateWithin(env, CARET_AT_END, { selector }, t, `selector "${selector}" to take the focus`);
}

function absoluteUrl(value: string, current: string): string {
  let url: URL;
  try {
    url = new URL(value, current);
  } catch {
    throw new InvalidUrlError(`"${value}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidUrlError(`only http and https URLs can be visited, not ${url.protocol}`);
  return url.href;
}

function waitMs(value: string): number {
  const ms = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(ms) || ms < 0 || ms > MAX_WAIT_MS) {
    throw new Error(`"${value}" is not a number of milliseconds to wait`);
  }
  return ms;
}

function scrollPixels(value: string): number | null {
  if (value.trim() === '') return null;
  const pixels = Number(value.trim());
  if (!Number.isFinite(pixels)) throw new Error(`"${value}" is not a number of pixels to scroll`);
  return pixels;
}

/** An error's message as both engines word it, and as a run may show it: see clean-message.ts. */
export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return cleanMessage(message) || (error instanceof Error ? error.name : 'unknown error');
}
