// Running healing's page scripts on a BrowserPage: take a fingerprint, count a selector's matches, rank the page's
// elements against a fingerprint and decide (decide.ts). Each call is one evaluate; the caller bounds its time.
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { ElementFingerprint } from './records.js';
import { DEFAULT_THRESHOLDS, decide, type Decision, type HealingThresholds, type MatchCandidate } from './decide.js';
import { COUNT_BODY, FINGERPRINT_BODY, MATCH_BODY } from './page-script.js';

/** The fingerprint of the selector's first match; undefined when nothing matches or the page cannot resolve it. */
export async function takeFingerprint(page: BrowserPage, selector: string): Promise<ElementFingerprint | undefined> {
  const found = await page.evaluate(FINGERPRINT_BODY, { selector });
  return found && typeof found === 'object' ? found as ElementFingerprint : undefined;
}

/** How many elements match `selector`; -1 when only an engine understands it (left to the engine). */
export async function countMatches(page: BrowserPage, selector: string): Promise<number> {
  return Number(await page.evaluate(COUNT_BODY, { selector }));
}

/** The page's visible elements ranked against `fingerprint`, best first (at most `limit`). */
export async function rankCandidates(page: BrowserPage, fingerprint: ElementFingerprint, limit = 5): Promise<MatchCandidate[]> {
  const answer = await page.evaluate(MATCH_BODY, { fingerprint, limit }) as { candidates: MatchCandidate[] };
  return answer.candidates;
}

/** The deterministic step of the repair ladder: rank, then the acceptance rule. */
export async function matchFingerprint(page: BrowserPage, fingerprint: ElementFingerprint, limits: HealingThresholds = DEFAULT_THRESHOLDS): Promise<Decision> {
  return decide(await rankCandidates(page, fingerprint), limits);
}
