/** The captcha contract's version (`major.minor`, see provider.ts), and the oldest a solver may be built for. */
export const CAPTCHA_CONTRACT_VERSION = '1.0';
export const CAPTCHA_CONTRACT_ACCEPTS = '1.0';

/**
 * One widget to solve: its kind, the site key the page renders it with, and the page's URL (solving services
 * need both). Nothing else of the page leaves the service.
 */
export interface CaptchaTask { kind: 'recaptcha' | 'hcaptcha' | 'turnstile'; siteKey: string; pageUrl: string }

/** A task's state: still being solved, solved (the token the widget's response field takes), or given up. */
export type CaptchaResult = { status: 'processing' } | { status: 'ready'; token: string } | { status: 'failed'; reason: string };

/**
 * A CAPTCHA solving service (optional capability, off unless CAPTCHA_SOLVER names one): a task is created, then
 * polled until it is ready or failed. Both methods reject with `Errors.UPSTREAM_ERROR({ reason })` when the service
 * cannot be reached or refuses (a bad key, no balance); `reason` never holds the key.
 */
export interface CaptchaSolver {
  readonly id: string;
  /** Resolves to the service's task id. */
  createTask(task: CaptchaTask, signal?: AbortSignal): Promise<string>;
  getResult(taskId: string, signal?: AbortSignal): Promise<CaptchaResult>;
}
