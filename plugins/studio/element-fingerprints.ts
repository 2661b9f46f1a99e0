import type { Action } from '../../kernel/contracts/records.js';
import type { ElementFingerprint } from '../../layers/healing/index.js';

/** An element the person recorded a step on or picked, with its candidate selectors and its fingerprint. */
export interface KeptElement {
  selectors: string[];
  fingerprint: ElementFingerprint;
}

/** The actions the runs heal (plugins/runs/runner/healing-step.ts): the others need no fingerprint. */
const HEALABLE = new Set(['click', 'hover', 'type', 'press', 'wait_selector', 'scroll']);

/** A session keeps at most this many (the oldest go first). */
const MAX_KEPT = 500;

export function keepElement(kept: KeptElement[], selectors: unknown, fingerprint: unknown): void {
  if (!Array.isArray(selectors) || !fingerprint || typeof fingerprint !== 'object') return;
  const names = selectors.map((c: { selector?: unknown } | string) => (typeof c === 'string' ? c : c?.selector)).filter((s): s is string => typeof s === 'string');
  if (names.length === 0) return;
  kept.push({ selectors: names, fingerprint: fingerprint as ElementFingerprint });
  if (kept.length > MAX_KEPT) kept.splice(0, kept.length - MAX_KEPT);
}

/**
 * The fingerprint of each action whose selector is a candidate of a kept element. Two kept elements may share a
 * selector (a CSS path on two pages): actions and elements go in the same order (a recording's), so each action
 * takes the first such element at or after the one the action before took, else the last.
 */
export function fingerprintsOf(actions: Action[], kept: KeptElement[]): Array<{ actionIndex: number; selector: string; fingerprint: ElementFingerprint }> {
  const out: Array<{ actionIndex: number; selector: string; fingerprint: ElementFingerprint }> = [];
  let cursor = 0;
  actions.forEach((action, actionIndex) => {
    const selector = action.selector;
    if (typeof selector !== 'string' || selector === '' || !HEALABLE.has(action.type)) return;
    const matches = kept.flatMap((element, i) => (element.selectors.includes(selector) ? [i] : []));
    if (matches.length === 0) return;
    const taken = matches.find((i) => i >= cursor) ?? matches.at(-1)!;
    cursor = taken;
    out.push({ actionIndex, selector, fingerprint: kept[taken]!.fingerprint });
  });
  return out;
}
