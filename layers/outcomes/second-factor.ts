import type { BrowserPage } from '../../kernel/contracts/browser.js';
import { settleWithin } from '../async/settle-within.js';

/** A page that does not answer the check within this is taken as no prompt (it is busy or navigating). */
const CHECK_MS = 5000;

/**
 * The second-factor rule, beside the bot-wall rules: a page asking for a one-time code. A visible, enabled text
 * field with `autocomplete="one-time-code"` (rule `one-time-code`), or whose name, id, placeholder, aria-label or
 * label says otp / 2fa / mfa / totp / one-time code / verification code / authentication code / two-factor
 * (rule `code-field`). Card security codes (`autocomplete="cc-csc"`) are not one. Test pages:
 * test/fixtures/pages/second-factor/.
 */
const DETECT = `
  const words = /(^|[^a-z0-9])(otp|2fa|mfa|totp|one time (code|password|passcode|pin)|verification code|auth(entication)? code|security code|two factor|2 step|two step)([^a-z0-9]|$)/i;
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' && !el.disabled;
  };
  const fields = [...document.querySelectorAll('input:not([type]), input[type="text"], input[type="tel"], input[type="number"], input[type="password"]')].filter(shown);
  const normal = (text) => (text || '').replace(/[_\\-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
  for (const field of fields) {
    const autocomplete = (field.getAttribute('autocomplete') || '').toLowerCase();
    if (autocomplete.includes('cc-csc')) continue;
    if (autocomplete.split(/\\s+/).includes('one-time-code')) return { rule: 'one-time-code', detail: 'a field with autocomplete="one-time-code"' };
    const labels = [...(field.labels || [])].map((label) => label.innerText).join(' ');
    const named = [field.name, field.id, field.getAttribute('placeholder'), field.getAttribute('aria-label'), labels].map(normal).join(' | ');
    const match = words.exec(named);
    if (match) return { rule: 'code-field', detail: 'a field for a code ("' + match[2] + '")' };
  }
  return null;
`;

export interface SecondFactorFinding {
  rule: 'one-time-code' | 'code-field';
  /** What was seen (the matched words only, never the page's text). */
  detail: string;
}

/** Looks for a second-factor prompt on the page now; undefined when there is none or the page cannot be read. */
export async function detectSecondFactor(page: BrowserPage): Promise<SecondFactorFinding | undefined> {
  const found = await settleWithin(page.evaluate(DETECT, {}), CHECK_MS, undefined, () => undefined);
  if (!found || typeof found !== 'object') return undefined;
  const { rule, detail } = found as SecondFactorFinding;
  return { rule, detail };
}
