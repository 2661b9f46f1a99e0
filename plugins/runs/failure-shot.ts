import type { BrowserPage } from '../../kernel/contracts/browser.js';
import { settleWithin } from '../../layers/async/settle-within.js';

/** A page that does not answer a screenshot within this long (wedged, crashed) gets none: the run ends anyway. */
export const FAILURE_SHOT_MS = 5000;

/**
 * The viewport as it was when the run failed, as a PNG, or undefined when the page could not give one in time
 * (`why` receives the reason, for the run's log). Never throws.
 */
export async function failureShot(page: BrowserPage, why: (reason: string) => void): Promise<Buffer | undefined> {
  const png = await settleWithin(page.screenshot({ fullPage: false, type: 'png' }), FAILURE_SHOT_MS, 'late' as const, (error: unknown) => {
    why(error instanceof Error ? error.message : String(error));
    return undefined;
  });
  if (png === 'late') why(`the page gave none within ${FAILURE_SHOT_MS} ms`);
  return png === 'late' ? undefined : png;
}
