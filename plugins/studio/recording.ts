import type { Action } from '../../kernel/contracts/records.js';

/** A selector the studio proposes for an element (see selector-script.ts). */
export interface Candidate {
  selector: string;
  kind: string;
  confidence: number;
}

/** What the recorder script reports (see recorder-script.ts). */
export type Recorded =
  | { kind: 'click'; selectors: Candidate[] }
  | { kind: 'type'; selectors: Candidate[]; password: boolean; value?: string; replaced?: boolean }
  | { kind: 'select'; selectors: Candidate[]; value: string }
  | { kind: 'press'; key: string; selectors: Candidate[] }
  | { kind: 'navigate'; url: string };

/** One recorded action and the other selectors it could use (best first; the action holds the first). */
export interface RecordedStep {
  action: Action;
  candidates: Candidate[];
  /** A variable the task needs (a password field's): its name. Its value is never recorded. */
  variable?: string;
}

/** The script a recorded select replays: the option set through the DOM, with the events a person's choice fires. */
export function selectScript(selector: string, value: string): string {
  return `const el = document.querySelector(${JSON.stringify(selector)});\n` +
    `if (!el) throw new Error(${JSON.stringify(`No element matches ${selector}`)});\n` +
    `el.value = ${JSON.stringify(value)};\n` +
    `el.dispatchEvent(new Event('input', { bubbles: true }));\nel.dispatchEvent(new Event('change', { bubbles: true }));`;
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
      return selector && typeof event.value === 'string' ? { action: { type: 'javascript', value: selectScript(selector, event.value) }, candidates } : undefined;
    case 'navigate':
      return typeof event.url === 'string' ? { action: { type: 'navigate', value: event.url }, candidates: [] } : undefined;
    case 'press':
      return typeof event.key === 'string' ? { action: { type: 'press', key: event.key, ...(selector ? { selector } : {}) }, candidates } : undefined;
    default:
      return undefined;
  }
}

/** Appends what the person did to the recording; resolves to the step and its index, or undefined when it made none. */
export function record(recording: { steps: RecordedStep[]; variables: Set<string> }, event: Recorded): { index: number; step: RecordedStep } | undefined {
  const step = stepOf(event, recording.variables);
  if (!step) return undefined;
  recording.steps.push(step);
  return { index: recording.steps.length - 1, step };
}
