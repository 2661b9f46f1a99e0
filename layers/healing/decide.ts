// The acceptance rule of a repair, pure: the page ranked the candidates (page-script.ts MATCH_BODY), this decides.
// A candidate is taken only when it is visible and matched by exactly one element (the page made its selector so,
// and the caller checks again before using it), scores at least the threshold, leads the runner-up (the best
// candidate that is not the same target wrapped or unwrapped, nor empty or generic itself) by the margin, and is not empty or generic (the
// document, a container of the whole page, an element without text, a footer element for a target outside one).
import type { ElementFingerprint } from './records.js';

export interface MatchCandidate {
  selector: string;
  /** [0, 1]. */
  score: number;
  tag: string;
  text: string;
  /** Why it can never be a repair (empty, generic, in the footer), when so. */
  generic?: string;
  /** It holds the best candidate or sits in it, with the same text: the same target, not a rival. */
  sameTarget?: boolean;
  fingerprint: ElementFingerprint;
}

export interface HealingThresholds {
  /** The least score a repair needs; default 0.55. */
  threshold: number;
  /** How far ahead of the runner-up it must be; default 0.12. */
  margin: number;
}

export const DEFAULT_THRESHOLDS: HealingThresholds = { threshold: 0.55, margin: 0.12 };

export type Decision =
  | { accepted: true; candidate: MatchCandidate; runnerUp?: MatchCandidate }
  | { accepted: false; reason: string; candidates: MatchCandidate[] };

export function decide(candidates: readonly MatchCandidate[], limits: HealingThresholds = DEFAULT_THRESHOLDS): Decision {
  const [best] = candidates;
  const refuse = (reason: string): Decision => ({ accepted: false, reason, candidates: [...candidates] });
  if (!best) return refuse('no visible element on the page');
  // A rival is another element that could be the repair: not the best one wrapped, not one that can never be taken.
  const runnerUp = candidates.slice(1).find((c) => !c.sameTarget && !c.generic);
  if (best.generic) return refuse(`the best candidate ${best.selector} is ${best.generic}`);
  if (best.score < limits.threshold) return refuse(`the best candidate ${best.selector} scores ${best.score}, under the threshold ${limits.threshold}`);
  if (runnerUp && best.score - runnerUp.score < limits.margin) {
    return refuse(`the best candidate ${best.selector} (${best.score}) is not clearly ahead of ${runnerUp.selector} (${runnerUp.score})`);
  }
  return { accepted: true, candidate: best, ...(runnerUp ? { runnerUp } : {}) };
}

/** The candidates as an error names them: `#a (0.81), .b (0.62)`. */
export function describeCandidates(candidates: readonly MatchCandidate[], count = 3): string {
  if (candidates.length === 0) return 'none';
  return candidates.slice(0, count).map((c) => `${c.selector} "${c.text.slice(0, 40)}" (${c.score})`).join(', ');
}
