import type { Logger } from '../../kernel/contracts/logger.js';
import { chooseChromium, type ChooseChromiumOptions, type ChromiumChoice } from './choose-chromium.js';
import { isExecutable } from './detect-chromium.js';

/**
 * Chooses the Chromium now (at start-up, in the background: Chromium itself still launches on the first run)
 * and logs the choice once, so the operator sees which browser runs and how it was found. The returned
 * function gives the choice to each launch. A failed detection is tried again at the next launch (Chromium
 * installed meanwhile), and so is a chosen browser that has gone (uninstalled).
 */
export function chromiumAtStart(options: ChooseChromiumOptions, logger: Logger): () => Promise<ChromiumChoice> {
  let current: Promise<ChromiumChoice> | undefined;
  let attempts = 0;
  const detect = () => {
    const attempt = chooseChromium(options);
    const first = attempts++ === 0;
    current = attempt;
    attempt.then(
      (choice) => logger.info(
        { executable: choice.executablePath, source: choice.source, headlessOnly: choice.headlessOnly },
        `Chromium to launch: ${choice.executablePath} (${choice.description})`,
      ),
      (error: unknown) => {
        if (current === attempt) current = undefined;
        // Said once at start-up; afterwards each run that needs a browser fails with the same message.
        if (first) logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'no Chromium to launch: runs will fail until one is found');
      },
    );
    return attempt;
  };
  detect();
  return async () => {
    const choice = await (current ?? detect());
    return isExecutable(choice.executablePath) ? choice : detect();
  };
}
