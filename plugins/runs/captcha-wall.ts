import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';
import type { AntiBotFinding } from '../../layers/outcomes/anti-bot-rules.js';
import { solveCaptcha } from '../../layers/outcomes/solve-captcha.js';
import { cleanErrorMessage } from './runner/index.js';

/**
 * A wall that is an unresolved CAPTCHA widget, on a run whose task asked for solving (`antiBot.captcha: "solve"`):
 * the solver solves it and the token goes in, then `recheck` looks again. Resolves to undefined once the wall is
 * gone; else to the wall as it stands, its detail saying why it stayed (the solver failed, or the site did not take
 * its token). Without a configured solver the wall stays as found (the log says why).
 */
export async function passCaptchaWall(
  page: BrowserPage, wall: AntiBotFinding, solver: CaptchaSolver | null | undefined, signal: AbortSignal,
  log: (level: 'info' | 'warn', message: string) => void, recheck: () => Promise<AntiBotFinding | undefined>,
): Promise<AntiBotFinding | undefined> {
  const kind = wall.captcha;
  if (!kind) return wall;
  if (!solver) {
    log('warn', `the task asks to solve CAPTCHAs, but no solver is configured (CAPTCHA_SOLVER): the ${kind} widget stays`);
    return wall;
  }
  log('info', `solving the ${kind} widget with the ${solver.id} CAPTCHA solver`);
  try {
    await solveCaptcha(page, kind, solver, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { ...wall, detail: `${wall.detail} (solving it failed: ${cleanErrorMessage(error)})` };
  }
  const after = await recheck();
  if (!after) {
    log('info', `the ${kind} widget was solved`);
    return undefined;
  }
  return { ...after, detail: `${after.detail} (the ${solver.id} solver's token was not accepted)` };
}
