import type { Verdict } from '../chain.js';
import { cleanSelector } from './clean-selector.js';

/**
 * Decides whether a cleaned selector is taken: the hook between the answer cleaner and the live page.
 * Resolves a refusal with a reason (the next key or slot is asked); rejects only when the check itself
 * cannot run (the page is gone), which stops the chain.
 */
export type AcceptSelector = (selector: string) => Promise<Verdict<string>>;

/** The decisions.md rule: a selector is taken only if it matches at least one element of the live page. */
export function acceptSelectorOn(page: { matches(selector: string): Promise<number> }): AcceptSelector {
  return async (selector) => {
    const count = await page.matches(selector);
    return count > 0 ? { ok: true, value: selector } : { ok: false, reason: `selector ${selector} matches no element of the page` };
  };
}

/** The chain's accept check: clean the answer, then ask `accept`. */
export function acceptAnswer(accept: AcceptSelector): (answer: string) => Promise<Verdict<string>> {
  return async (answer) => {
    const selector = cleanSelector(answer);
    if (selector === undefined) return { ok: false, reason: 'the answer holds no CSS selector' };
    return accept(selector);
  };
}
