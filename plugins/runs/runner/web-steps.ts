// More of the web (issue 23): the actions beyond the first set, and `frame`. Decisions:
// - Default limits (ms): check, uncheck, select, double_click, right_click and drag_and_drop 10000 (as click);
//   reload, wait_navigation and wait_network_idle 30000 (as navigate).
// - select: `value` is the option's value, else its label (trimmed); empty selects the option whose value is "".
// - drag_and_drop: drags `selector`'s first match onto `target`'s, with the mouse (HTML5 drag and drop too). Both
//   are in the action's `frame`: one drag does not cross documents.
// - reload: the current URL passes `checkNavigation` first, as a navigate's would (the page may have moved on
//   by itself to a URL no task could visit).
// - wait_navigation: the main frame's navigation counts from when the previous browser action (not a `wait`,
//   which may sit between the click and it) started, so it
//   waits for nothing after a click whose navigation already happened (Playwright's click waits for it,
//   Puppeteer's does not: this way both mean the same); else it waits for the next one. Then for its `load`.
//   A same-document URL change (history.pushState) counts too.
// - wait_network_idle: no request in flight for `value` ms (default 500). A page that polls or streams for
//   ever never gets there: the limit then fails the action.
// - frame: `>>` separates a chain of iframe selectors, outermost first (`#outer >> iframe[name=inner]`); the
//   action's selectors work in the innermost document, of any origin. The chain is waited for within the
//   action's limit, then the action has its own limit. Only actions with a selector take one (foreach too:
//   its elements are the frame's, and the actions inside name the frame again).
import type { BrowserFrame, BrowserPage } from '../../../kernel/contracts/browser.js';
import { guard, timedOut } from './guard.js';
import type { Step, StepEnv } from './steps.js';

export const WEB_TIMEOUTS: Readonly<Record<string, number>> = {
  check: 10_000, uncheck: 10_000, select: 10_000, double_click: 10_000, right_click: 10_000, drag_and_drop: 10_000,
  reload: 30_000, wait_navigation: 30_000, wait_network_idle: 30_000,
};
export const WEB_TYPES = new Set(Object.keys(WEB_TIMEOUTS));
/** The types whose `selector` names an element, and so may take a `frame`. */
export const SELECTOR_TYPES = new Set([
  'click', 'hover', 'type', 'press', 'wait_selector', 'scroll', 'foreach', 'get_content', 'check', 'uncheck', 'select',
  'double_click', 'right_click', 'drag_and_drop', 'upload', 'download',
]);
/** How much later than an engine's own timeout the runner gives up on a primitive that did not return. */
export const BACKSTOP_MS = 1000;
const DEFAULT_IDLE_MS = 500;

/** The main frame's navigation count as each browser action started (see wait_navigation). */
const marks = new WeakMap<BrowserPage, number>();

/** A primitive the engine times itself within `t` ms (0: none): the runner's clock is only a backstop. */
export function native(env: StepEnv, t: number, work: Promise<void>, what: string): Promise<void> {
  return guard(work, env.hooks.signal, t && t + BACKSTOP_MS, () => timedOut(what, t));
}

/** Notes where the navigation count stood as a browser action starts. */
export function markNavigations(step: Step, page: BrowserPage): void {
  if (step.type !== 'wait_navigation' && step.type !== 'wait' && page.navigations) marks.set(page, page.navigations());
}

/** `env` with its page's document members working in the step's frame; `env` itself when it names none. */
export async function withFrame(step: Step, env: StepEnv): Promise<StepEnv> {
  const chain = (step.frame ?? '').split('>>').map((part) => part.trim()).filter(Boolean);
  if (chain.length === 0) return env;
  const { page } = env;
  const what = `frame "${chain.join(' >> ')}"`;
  if (!page.frame) throw unsupported('work inside frames');
  let frame: BrowserFrame | undefined;
  await native(env, step.timeoutMs, page.frame(chain, step.timeoutMs).then((found) => { frame = found; }), what);
  return { ...env, page: framed(page, frame!) };
}

/** Runs one of WEB_TYPES. */
export async function runWebStep(step: Step, env: StepEnv): Promise<void> {
  const { page, hooks } = env;
  const t = step.timeoutMs;
  const selector = step.selector ?? '';
  const on = `selector "${selector}"`;
  switch (step.type) {
    case 'check': case 'uncheck':
      return native(env, t, need(page.setChecked, 'check boxes').call(page, selector, step.type === 'check', t), `${on} to ${step.type}`);
    case 'select':
      return native(env, t, need(page.selectOption, 'select options').call(page, selector, step.value ?? '', t), `${on} to select in`);
    case 'double_click': case 'right_click': {
      const how = step.type === 'double_click' ? 'double' : 'right';
      return native(env, t, need(page.clickAs, `${how}-click`).call(page, selector, how, t), `${on} to ${how}-click`);
    }
    case 'drag_and_drop':
      return native(env, t, need(page.dragAndDrop, 'drag and drop').call(page, selector, step.target ?? '', t), `${on} to drag onto "${step.target}"`);
    case 'reload':
      await guard(hooks.checkNavigation(page.url()), hooks.signal);
      return native(env, t, need(page.reload, 'reload').call(page, t), 'the page to reload');
    case 'wait_navigation': {
      const wait = need(page.waitForNavigation, 'wait for a navigation');
      return native(env, t, wait.call(page, marks.get(page) ?? page.navigations?.() ?? 0, t), 'a navigation');
    }
    case 'wait_network_idle': {
      const idle = idleMs(step.value ?? '');
      return native(env, t, need(page.waitForNetworkIdle, 'wait for the network').call(page, idle, t), `the network to be idle for ${idle} ms`);
    }
    default:
      throw new Error(`"${step.type}" is not a page action`);
  }
}

/** The page as the frame's document: members the frame has are its own, the rest stay the page's. */
function framed(page: BrowserPage, frame: BrowserFrame): BrowserPage {
  return new Proxy(page, {
    get(target, key) {
      const source = key in frame ? frame : target;
      const value: unknown = Reflect.get(source, key);
      return typeof value === 'function' ? value.bind(source) : value;
    },
  });
}

function need<T>(member: T | undefined, what: string): T {
  if (!member) throw unsupported(what);
  return member;
}

function unsupported(what: string): Error {
  return new Error(`this browser engine cannot ${what} (it speaks a browser contract older than 1.3)`);
}

function idleMs(value: string): number {
  if (value.trim() === '') return DEFAULT_IDLE_MS;
  const ms = Number(value.trim());
  if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) throw new Error(`"${value}" is not a number of milliseconds of network quiet`);
  return ms;
}
