// A page action with healing around it (README "Healing"). Decisions:
// - Only actions that act on one element by selector heal: click, double_click, right_click, hover, type, press
//   (with a selector), check, uncheck, select, get_content, wait_selector and scroll (with a selector). Not
//   foreach or drag_and_drop (two elements), nothing inside a loop (its selectors change per pass). An action in a
//   frame heals inside that frame's document: its fingerprint is taken there, and the repair ranks that document.
// - The fingerprint is taken as the action starts (after a click the page may be another one), only when the
//   healing asks for it (none stored for this action and selector). When its element was not there yet, other
//   actions try again after they succeeded; a click or press does not (a later run will). A fingerprint that
//   cannot be had is skipped silently: it never fails the run.
// - The ladder runs only when the action failed and its selector matches nothing at all on the page (a
//   selector the page cannot resolve itself, an engine-only form, is left as it was). With a repair the action
//   runs once more with the repaired selector; without one, the action's own error stands (its message gains
//   the healing's reason, with the candidates it refused).
import type { ElementFingerprint } from '../../../layers/healing/records.js';
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import { countMatches, takeFingerprint } from '../../../layers/healing/index.js';
import { guard } from './guard.js';
import { messageOf, runPageStep, type Step, type StepEnv, type StepResult } from './steps.js';
import { markNavigations, withFrame } from './web-steps.js';

/** What the runner asks of healing (the runs plugin's per-run controller). */
export interface RunnerHealing {
  /** True when the element of this action should be fingerprinted (none stored for this selector yet). */
  wants(index: number, selector: string): boolean;
  /** The fingerprint of the element the action matched, taken before it acted. */
  fingerprinted(index: number, selector: string, fingerprint: ElementFingerprint): void;
  /**
   * The action's selector matches nothing: resolves to the selector to use instead, or to the reason there is
   * none (no candidate taken: the candidates refused are named); undefined when there was nothing to try (no
   * fingerprint stored yet): the action's error then stands as it is.
   */
  repair(index: number, type: string, selector: string, page: BrowserPage): Promise<{ selector: string } | { reason: string } | undefined>;
  /**
   * For a task that asks for the check (`healingCheck`), before the action acts: undefined while the selector's element
   * still is the fingerprinted one (or cannot be judged); else a repair as `repair` resolves it.
   */
  check?(index: number, type: string, selector: string, page: BrowserPage): Promise<{ selector: string } | { reason: string } | undefined>;
}

const HEALABLE = new Set([
  'click', 'double_click', 'right_click', 'hover', 'type', 'press', 'check', 'uncheck', 'select', 'get_content', 'wait_selector', 'scroll',
]);
/** Actions after which the page may be another one: their element is fingerprinted before they act or not at all. */
const MAY_LEAVE = new Set(['click', 'double_click', 'right_click', 'press']);
/** The longest a fingerprint or a match count may take: healing never holds a run up for long. */
const PROBE_MS = 3000;

export async function runHealingStep(index: number, step: Step, env: StepEnv, healing: RunnerHealing | undefined): Promise<StepResult> {
  const selector = step.selector ?? '';
  if (!healing || selector === '' || !HEALABLE.has(step.type)) return runPageStep(step, env);
  // In a frame: the frame is entered once, and everything below works in its document (a later wait_navigation
  // counts from this action on the page itself, as it would without healing).
  if (step.frame) {
    markNavigations(step, env.page);
    return runHealingStep(index, { ...step, frame: undefined }, await withFrame(step, env), healing);
  }
  const { page, hooks } = env;
  const probe = <T>(work: Promise<T>) => guard(work, hooks.signal, PROBE_MS, () => new Error('the page did not answer in time'));
  const fingerprint = async (): Promise<boolean> => {
    const taken = await probe(takeFingerprint(page, selector)).catch(() => undefined);
    if (taken) healing.fingerprinted(index, selector, taken);
    return taken !== undefined;
  };

  // Asked before the action acts and not awaited first: the page answers it before the action's own commands (they
  // travel in order), so the run does not wait for it, and it sees the element as it was before a click moved on.
  const checked = await healing.check?.(index, step.type, selector, page);
  if (checked && 'reason' in checked) throw new Error(`the element of selector "${selector}" is no longer the one it was (healing: ${checked.reason})`);
  if (checked) return runPageStep({ ...step, selector: checked.selector }, env);
  const wanted = healing.wants(index, selector);
  const early = wanted ? probe(takeFingerprint(page, selector)).catch(() => undefined) : undefined;
  try {
    const result = await runPageStep(step, env);
    const taken = await early;
    if (taken) healing.fingerprinted(index, selector, taken);
    else if (wanted && !MAY_LEAVE.has(step.type)) await fingerprint();
    return result;
  } catch (error) {
    if (hooks.signal.aborted) throw error;
    const count = await probe(countMatches(page, selector)).catch(() => -1);
    if (count !== 0) throw error;
    const repair = await healing.repair(index, step.type, selector, page);
    if (!repair) throw error;
    if ('reason' in repair) throw new Error(`${messageOf(error)} (healing: ${repair.reason})`, { cause: error });
    return runPageStep({ ...step, selector: repair.selector }, env);
  }
}
