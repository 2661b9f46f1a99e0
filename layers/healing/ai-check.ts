// The check of a selector an AI provider answered for a repair (the ladder's step b). The provider is asked only
// when the deterministic step was not decisive; its answer is taken only when it names exactly one visible element
// that is not empty or generic, that element scores at least 0.8 × the threshold against the fingerprint, and no
// other element the page ranked scores clearly more (by more than 0.02): the provider breaks a near tie or vouches
// for a weak best match, and is never believed over the page's own evidence.
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { ElementFingerprint } from './records.js';
import type { HealingThresholds, MatchCandidate } from './decide.js';
import { rankCandidates } from './match.js';

const AI_THRESHOLD_SHARE = 0.8;
const AI_TIE = 0.02;

/**
 * `selector` taken as the repair (the element's candidate), or why not. With `firstMatch` (the fingerprint check of a
 * selector that still matches), its first match is judged as the action would use it, however many there are.
 */
export async function checkAiSelector(
  page: BrowserPage, selector: string, fingerprint: ElementFingerprint, limits: HealingThresholds, options: { firstMatch?: boolean } = {},
): Promise<{ ok: true; candidate: MatchCandidate; runnerUp?: MatchCandidate } | { ok: false; reason: string }> {
  let same: number;
  try {
    same = Number(await page.evaluate(
      'const all = [...document.querySelectorAll(args.selector)]; const v = all.filter((el) => el.checkVisibility ? el.checkVisibility() : true); '
      + 'if (!(args.first && all.length) && (all.length !== 1 || v.length !== 1)) return -all.length;'
      + 'all[0].setAttribute("data-taskloom-ai-pick", "1"); return 1;',
      { selector, first: options.firstMatch === true },
    ));
  } catch {
    return { ok: false, reason: `${selector} is not a CSS selector the page accepts` };
  }
  if (same !== 1) return { ok: false, reason: `${selector} matches ${-same} elements, not exactly one visible` };
  try {
    const ranked = await rankCandidates(page, fingerprint, 20);
    const picked = Number(await page.evaluate(
      'const el = document.querySelector("[data-taskloom-ai-pick]"); el.removeAttribute("data-taskloom-ai-pick");'
      + 'return args.selectors.findIndex((s) => { try { return document.querySelector(s) === el; } catch { return false; } });',
      { selectors: ranked.map((c) => c.selector) },
    ));
    const candidate = ranked[picked];
    if (!candidate) return { ok: false, reason: `${selector} is not among the elements that resemble the target` };
    if (candidate.generic) return { ok: false, reason: `${selector} is ${candidate.generic}` };
    if (candidate.score < limits.threshold * AI_THRESHOLD_SHARE) return { ok: false, reason: `${selector} scores ${candidate.score} against the fingerprint` };
    const better = ranked.find((c) => c !== candidate && !c.generic && c.score > candidate.score + AI_TIE);
    if (better) return { ok: false, reason: `${better.selector} (${better.score}) resembles the target more than ${selector} (${candidate.score})` };
    const runnerUp = ranked.find((c) => c !== candidate && !c.generic && !c.sameTarget);
    return { ok: true, candidate, ...(runnerUp ? { runnerUp } : {}) };
  } finally {
    await page.evaluate('document.querySelector("[data-taskloom-ai-pick]")?.removeAttribute("data-taskloom-ai-pick")', {}).catch(() => undefined);
  }
}
