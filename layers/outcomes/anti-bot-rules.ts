import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import { settleWithin } from '../async/settle-within.js';

/** A page that does not answer the check within this is taken as no wall (it is busy, not walled). */
const CHECK_MS = 5000;
const POLL_MS = 500;

/**
 * The bot-wall detection rules, in the order they are tried. Each has a test page (test/fixtures/pages/anti-bot/).
 * - `status-challenge`: the main document answered 403 or 429 and shows a challenge (a CAPTCHA widget, a
 *   challenge script or form, or words asking to prove being human).
 * - `challenge-page`: a known challenge interstitial (Cloudflare "Just a moment...", "Attention Required!",
 *   DDoS-Guard, PerimeterX, DataDome, Imperva/Incapsula), by title or by its markup.
 * - `captcha-widget`: an unresolved reCAPTCHA, hCaptcha or Turnstile widget (its response field empty) on a page
 *   that is little else (an interstitial: short text), or on the page where the run failed.
 * - `checking-browser`: a short page saying it is checking the browser or verifying the visitor is human.
 */
export const ANTI_BOT_RULES = ['status-challenge', 'challenge-page', 'captcha-widget', 'checking-browser'] as const;
export type AntiBotRule = (typeof ANTI_BOT_RULES)[number];
export type CaptchaKind = 'recaptcha' | 'hcaptcha' | 'turnstile';

export interface AntiBotFinding {
  rule: AntiBotRule;
  /** What was seen, for the log and the error message (no page text beyond the matched words). */
  detail: string;
  /** The main document's HTTP status, when the browser tells it. */
  status?: number;
  /** The unresolved widget found, if any. */
  captcha?: CaptchaKind;
}

/** Pages with more visible text than this are content, not interstitials (the widget and text rules). */
export const SHORT_PAGE_CHARS = 3000;

/**
 * Runs in the page (`args.strictWidget`: only widgets on short pages count). Reads the navigation entry's
 * `responseStatus` (Chromium 109+) for the main document's status.
 */
const DETECT = `
  const text = (document.body && document.body.innerText || '').slice(0, 20000);
  const title = document.title || '';
  const short = text.length <= ${SHORT_PAGE_CHARS};
  const nav = performance.getEntriesByType('navigation')[0];
  const status = nav && typeof nav.responseStatus === 'number' && nav.responseStatus > 0 ? nav.responseStatus : undefined;
  const has = (selector) => document.querySelector(selector) !== null;
  const widgets = [
    ['recaptcha', '.g-recaptcha:not([data-size="invisible"]), iframe[src*="/recaptcha/api2/anchor"], iframe[src*="/recaptcha/enterprise/anchor"]', '[name="g-recaptcha-response"]'],
    ['hcaptcha', '.h-captcha:not([data-size="invisible"]), iframe[src*="hcaptcha.com"][src*="checkbox"], iframe[data-hcaptcha-widget-id]', '[name="h-captcha-response"]'],
    ['turnstile', '.cf-turnstile, iframe[src*="challenges.cloudflare.com"]', '[name="cf-turnstile-response"]'],
  ];
  let widget;
  for (const [kind, selector, response] of widgets) {
    if (!has(selector)) continue;
    const fields = [...document.querySelectorAll(response)];
    if (fields.length > 0 && fields.every((field) => (field.value || '').trim() !== '')) continue;
    widget = kind;
    break;
  }
  const challengeTitle = /^(just a moment\\.\\.\\.|attention required! \\| cloudflare|please wait\\.\\.\\. \\| cloudflare|ddos-guard|access to this page has been denied|pardon our interruption|one more step)/i.exec(title.trim());
  const challengeMarkup = ['#challenge-form', '#challenge-running', '#cf-challenge-running', '#challenge-stage', 'script[src*="/cdn-cgi/challenge-platform/"]',
    '#px-captcha', 'iframe[src*="captcha-delivery.com"]', 'iframe[src*="geo.captcha-delivery"]', '#ddg-captcha', 'iframe[src*="_Incapsula_Resource"]']
    .find((selector) => has(selector));
  const checking = /checking (if the site connection is secure|your browser)|verify(ing)? (that )?you are (a )?human|are you a robot|please wait while we (check|verify) your browser|enable javascript and cookies to continue|unusual traffic from your (computer|network)/i.exec(text);
  if (status === 403 || status === 429) {
    const sign = widget ? 'a ' + widget + ' widget' : challengeMarkup ? 'challenge markup (' + challengeMarkup + ')' : challengeTitle ? 'the title "' + challengeTitle[0] + '"' : checking ? '"' + checking[0] + '"' : undefined;
    if (sign) return { rule: 'status-challenge', detail: 'the page answered ' + status + ' with ' + sign, status, captcha: widget };
  }
  if (challengeTitle) return { rule: 'challenge-page', detail: 'a challenge page (title "' + challengeTitle[0] + '")', status, captcha: widget };
  if (challengeMarkup) return { rule: 'challenge-page', detail: 'a challenge page (' + challengeMarkup + ')', status, captcha: widget };
  if (widget && (short || !args.strictWidget)) return { rule: 'captcha-widget', detail: 'an unresolved ' + widget + ' widget', status, captcha: widget };
  if (checking && short) return { rule: 'checking-browser', detail: 'the page says "' + checking[0] + '"', status };
  return null;
`;

/**
 * Looks for a bot wall on the page now. `strictWidget` (default true): a widget counts only on a short page (a
 * form with a CAPTCHA among content is no wall); false where the run failed (the widget is the likely reason).
 * Resolves to undefined when none is found or the page cannot be read (closed, navigating).
 */
export async function detectAntiBot(page: BrowserPage, strictWidget = true): Promise<AntiBotFinding | undefined> {
  const found = await settleWithin(page.evaluate(DETECT, { strictWidget }), CHECK_MS, undefined, () => undefined);
  if (!found || typeof found !== 'object') return undefined;
  const { rule, detail, status, captcha } = found as AntiBotFinding;
  return { rule, detail, ...(typeof status === 'number' ? { status } : {}), ...(captcha ? { captcha } : {}) };
}

/**
 * The wall on the page, if one stays: a challenge page or a "checking your browser" page often clears by itself
 * (its script passes and reloads), so those are looked at again for up to `waitMs` before they count. A widget
 * or a 403/429 challenge counts at once (nothing clears those without a person or a solver).
 */
export async function wallOf(page: BrowserPage, options: { waitMs: number; strictWidget?: boolean; signal?: AbortSignal }): Promise<AntiBotFinding | undefined> {
  const deadline = Date.now() + options.waitMs;
  let found = await detectAntiBot(page, options.strictWidget);
  while (found && (found.rule === 'challenge-page' || found.rule === 'checking-browser') && Date.now() < deadline && !options.signal?.aborted) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    found = await detectAntiBot(page, options.strictWidget);
    // Unreadable or clear while its script reloads the page: look once more once the next page is in.
    if (!found) found = await sleep(POLL_MS).then(() => detectAntiBot(page, options.strictWidget));
  }
  return found;
}
