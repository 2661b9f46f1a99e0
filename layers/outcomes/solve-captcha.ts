import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';
import type { CaptchaKind } from './anti-bot-rules.js';

/** How long a solve may take in all (solving services answer in 10 to 60 s), and how often it is polled. */
export interface SolveLimits {
  timeoutMs: number;
  pollMs: number;
}

export const SOLVE_LIMITS: SolveLimits = { timeoutMs: 180_000, pollMs: 3000 };
/** After the token is in: time for the page's callback to submit it and the next page to load. */
const SETTLE_MS = 1000;
const LOAD_WAIT_MS = 10_000;

/** Runs in the page: the widget's site key (its `data-sitekey`, else its frame's `k` / `sitekey` parameter). */
const SITE_KEY = `
  const roots = { recaptcha: '.g-recaptcha', hcaptcha: '.h-captcha', turnstile: '.cf-turnstile' };
  const frames = { recaptcha: 'iframe[src*="/recaptcha/"]', hcaptcha: 'iframe[src*="hcaptcha"]', turnstile: 'iframe[src*="challenge-platform"], iframe[src*="challenges.cloudflare.com"]' };
  const root = document.querySelector(roots[args.kind] + '[data-sitekey]');
  if (root) return root.getAttribute('data-sitekey');
  const frame = document.querySelector(frames[args.kind]);
  if (!frame) return null;
  const src = new URL(frame.src, location.href);
  return src.searchParams.get('k') || src.searchParams.get('sitekey') || new URLSearchParams(src.hash.slice(1)).get('sitekey');
`;

/** Runs in the page: the token into every response field of the widget, then the widget's callback, as the widget would. */
const INJECT = `
  const fields = { recaptcha: '[name="g-recaptcha-response"]', hcaptcha: '[name="h-captcha-response"], [name="g-recaptcha-response"]', turnstile: '[name="cf-turnstile-response"]' };
  for (const field of document.querySelectorAll(fields[args.kind])) field.value = args.token;
  for (const frame of document.querySelectorAll('iframe[data-hcaptcha-widget-id]')) frame.setAttribute('data-hcaptcha-response', args.token);
  const roots = { recaptcha: '.g-recaptcha', hcaptcha: '.h-captcha', turnstile: '.cf-turnstile' };
  const name = document.querySelector(roots[args.kind])?.getAttribute('data-callback');
  if (name && typeof window[name] === 'function') setTimeout(() => window[name](args.token), 0);
  return Boolean(name);
`;

/**
 * Has `solver` solve the unresolved `kind` widget on the page and puts the token in, as the widget does when a
 * person solves it (its response fields, then its `data-callback`); resolves once the page settled. Rejects with a
 * message saying why it could not (no site key, the service failed or gave up, no token in time).
 */
export async function solveCaptcha(page: BrowserPage, kind: CaptchaKind, solver: CaptchaSolver, signal: AbortSignal, limits: SolveLimits = SOLVE_LIMITS): Promise<void> {
  const siteKey = await page.evaluate(SITE_KEY, { kind });
  if (typeof siteKey !== 'string' || siteKey === '') throw new Error(`the ${kind} widget names no site key`);
  const taskId = await solver.createTask({ kind, siteKey, pageUrl: page.url() }, signal);
  const deadline = Date.now() + limits.timeoutMs;
  let token: string | undefined;
  while (token === undefined) {
    if (Date.now() > deadline) throw new Error(`no token within ${Math.round(limits.timeoutMs / 1000)} s`);
    await sleep(limits.pollMs, undefined, { signal });
    const result = await solver.getResult(taskId, signal);
    if (result.status === 'failed') throw new Error(result.reason);
    if (result.status === 'ready') token = result.token;
  }
  await page.evaluate(INJECT, { kind, token });
  await sleep(SETTLE_MS, undefined, { signal });
  // The callback may have sent the page on: wait for the next one to be in (reads fail while it navigates).
  const loadDeadline = Date.now() + LOAD_WAIT_MS;
  while (Date.now() < loadDeadline && !signal.aborted) {
    const state = await page.evaluate('return document.readyState', {}).catch(() => 'navigating');
    if (state === 'complete') return;
    await sleep(200);
  }
}
