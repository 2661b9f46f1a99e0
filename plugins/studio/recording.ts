import type { Action } from '../../kernel/contracts/records.js';

/** A selector the studio proposes for an element (see selector-script.ts). */
export interface Candidate {
  selector: string;
  kind: string;
  confidence: number;
}

/**
 * What the recorder script reports (see recorder-script.ts), an element's event with its fingerprint too. `appeared`: the element was not shown at the step
 * before, so the recording waits for it first.
 */
export type Recorded =
  | { kind: 'click'; selectors: Candidate[]; appeared?: boolean }
  | { kind: 'check'; checked: boolean; selectors: Candidate[]; appeared?: boolean }
  | { kind: 'dblclick'; selectors: Candidate[] }
  | { kind: 'right_click'; selectors: Candidate[]; appeared?: boolean }
  | { kind: 'type'; selectors: Candidate[]; password: boolean; value?: string; replaced?: boolean; appeared?: boolean }
  | { kind: 'select'; selectors: Candidate[]; value: string; appeared?: boolean }
  | { kind: 'press'; key: string; selectors: Candidate[]; appeared?: boolean }
  | { kind: 'scroll'; by: number }
  | { kind: 'navigate'; url: string };

/** One recorded action and the other selectors it could use (best first; the action holds the first). */
export interface RecordedStep {
  action: Action;
  candidates: Candidate[];
  /** A variable the task needs (a password field's): its name. Its value is never recorded. */
  variable?: string;
}

/**
 * Turns what the person did into actions of the types the service runs. A password becomes `{$password}` (then
 * `{$password2}`, ...): `variables` names those already in use.
 */
export function stepOf(event: Recorded, variables: Set<string>): RecordedStep | undefined {
  const candidates = 'selectors' in event && Array.isArray(event.selectors) ? event.selectors.filter((c) => typeof c?.selector === 'string') : [];
  const selector = candidates[0]?.selector;
  switch (event.kind) {
    case 'click':
      return selector ? { action: { type: 'click', selector }, candidates } : undefined;
    case 'check':
      return selector ? { action: { type: event.checked === false ? 'uncheck' : 'check', selector }, candidates } : undefined;
    case 'right_click':
      return selector ? { action: { type: 'right_click', selector }, candidates } : undefined;
    case 'dblclick':
      return selector ? { action: { type: 'double_click', selector }, candidates } : undefined;
    case 'type': {
      if (!selector) return undefined;
      if (event.password) {
        let name = 'password';
        for (let n = 2; variables.has(name); n++) name = `password${n}`;
        variables.add(name);
        return { action: { type: 'type', selector, value: `{$${name}}` }, candidates, variable: name };
      }
      if (typeof event.value !== 'string' || event.value === '') return undefined;
      return { action: { type: 'type', selector, value: event.value }, candidates };
    }
    case 'select':
      return selector && typeof event.value === 'string' ? { action: { type: 'select', selector, value: event.value }, candidates } : undefined;
    case 'scroll':
      return Number.isFinite(event.by) && event.by !== 0 ? { action: { type: 'scroll', value: String(Math.round(event.by)) }, candidates: [] } : undefined;
    case 'navigate':
      return typeof event.url === 'string' ? { action: { type: 'navigate', value: event.url }, candidates: [] } : undefined;
    case 'press':
      return typeof event.key === 'string' ? { action: { type: 'press', key: event.key, ...(selector ? { selector } : {}) }, candidates } : undefined;
    default:
      return undefined;
  }
}

/**
 * Appends what the person did to the recording: a `wait_selector` for its element first when the element appeared
 * since the step before; a scroll right after another adds to it. Resolves to the steps added or changed, with
 * their indexes (none when it made no action).
 */
export function record(recording: { steps: RecordedStep[]; variables: Set<string> }, event: Recorded): Array<{ index: number; step: RecordedStep }> {
  const step = stepOf(event, recording.variables);
  if (!step) return [];
  const { steps } = recording;
  const last = steps.at(-1);
  if (step.action.type === 'scroll' && last?.action.type === 'scroll' && !last.action.selector) {
    last.action = { type: 'scroll', value: String(Number(last.action.value) + Number(step.action.value)) };
    return [{ index: steps.length - 1, step: last }];
  }
  if (step.action.type === 'double_click') {
    // The page saw two clicks before its dblclick: they become the one action (a wait for the element stays).
    const clicks = steps.slice(-2);
    if (clicks.length === 2 && clicks.every((s) => s.action.type === 'click' && s.action.selector === step.action.selector)) {
      steps.splice(-2, 2, step);
      return [{ index: steps.length - 1, step }];
    }
    return [];
  }
  const added: Array<{ index: number; step: RecordedStep }> = [];
  const push = (s: RecordedStep) => { steps.push(s); added.push({ index: steps.length - 1, step: s }); };
  const { selector } = step.action;
  if ('appeared' in event && event.appeared === true && selector) {
    push({ action: { type: 'wait_selector', selector }, candidates: step.candidates });
  }
  push(step);
  return added;
}
