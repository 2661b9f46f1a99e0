import type { ContextOptions } from '../../../kernel/contracts/browser.js';

/**
 * Resource types (as both engines name them) a page holds whole in memory: one announcing more than the
 * context's `maxResponseBytes` ends the run before it is loaded. Media is left out: it streams in ranges.
 */
const HELD_WHOLE = new Set(['document', 'stylesheet', 'image', 'font', 'script', 'fetch', 'xhr']);

/** A response as both engines show it. */
export interface ResponseLike {
  url(): string;
  headers(): Record<string, string>;
  request(): { resourceType(): string };
}

/**
 * Tells `options.onFailure` about a response over `options.maxResponseBytes`. Reads only what the engine
 * already has (the response headers): no request interception, which would slow every request of every run.
 */
export function checkResponseSize(options: ContextOptions, response: ResponseLike): void {
  const max = options.maxResponseBytes;
  if (max === undefined || !options.onFailure) return;
  const bytes = Number(response.headers()['content-length']);
  if (!Number.isFinite(bytes) || bytes <= max) return;
  if (!HELD_WHOLE.has(response.request().resourceType())) return;
  options.onFailure({ kind: 'response-too-large', url: response.url(), bytes });
}
