import { Errors, TaskloomError } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import type { PageCapture } from '../runs/decorators.js';
import type { BrowserSessions } from '../headful/decorators.js';
import { MATCH_SCRIPT } from './match-script.js';
import { replayOf, withReplayedPage, type MatchablePage } from './replay.js';
import type { CandidateValue, HighlightAnswerValue, HighlightInput } from './schemas.js';

/** The interface's limit. */
export const MAX_CANDIDATES = 5;
const NAVIGATION_MS = 30_000;
const COMMAND_MS = 30_000;
const HIGHLIGHT_KEEP_MS = 3000;
const JPEG_QUALITY = 70;

export interface InspectorDeps {
  services: KernelServices;
  sessions: BrowserSessions;
  /** The runs plugin's page capture, when the composition has one (known once the service is ready). */
  capture(): PageCapture | undefined;
}

/**
 * Finds the elements a hint names. With `task` (an extension): on the page the task reaches before its action
 * `actionIndex`, replayed in a fresh context as generate-selector does. In a browser session: on the page its
 * window shows (navigated to `url` first when given). Without one: `url` is opened in a context of the
 * service's own browser.
 */
export function createInspector(deps: InspectorDeps) {
  const { services, sessions } = deps;

  async function inspect(page: MatchablePage, input: HighlightInput): Promise<HighlightAnswerValue> {
    const withShot = input.screenshot !== false;
    const found = await page.evaluate(MATCH_SCRIPT, {
      hint: input.targetHint, limit: MAX_CANDIDATES, highlight: withShot, keepMs: HIGHLIGHT_KEEP_MS,
    }) as { candidates: CandidateValue[] };
    if (!withShot) return { candidates: found.candidates };
    const jpeg = await page.screenshot({ fullPage: false, type: 'jpeg', quality: JPEG_QUALITY });
    return { candidates: found.candidates, screenshot: jpeg.toString('base64') };
  }

  return {
    async highlight(input: HighlightInput, signal?: AbortSignal): Promise<HighlightAnswerValue> {
      const replay = replayOf(input);
      const { url } = input;
      if (url !== undefined) await services.outbound.guard.checkUrl(url, { errorAs: Errors.INVALID_URL });
      const session = input.sessionId !== undefined ? sessions.get(input.sessionId) : sessions.current();
      try {
        if (replay) {
          const replayDeps = { guard: services.outbound.guard, capture: deps.capture };
          return await withReplayedPage(replayDeps, replay, signal, (page) => inspect(page, input));
        }
        if (session) {
          return await session.withWindowPage(async (page) => {
            if (url !== undefined) await page.goto(url, NAVIGATION_MS);
            return inspect(page, input);
          }, COMMAND_MS);
        }
        if (url === undefined) {
          throw Errors.VALIDATION_ERROR({ message: 'No browser session is open: give url (or task and actionIndex), or open one with POST /api/browser/open' });
        }
        const outcome = await services.browser.withContext({ keepCookies: true }, async (context) => {
          const page = await context.newPage();
          await page.goto(url, NAVIGATION_MS);
          return inspect(page, input);
        }, { timeoutMs: NAVIGATION_MS + COMMAND_MS });
        if (outcome.status !== 'ok') throw outcome.error;
        return outcome.value;
      } catch (error) {
        if (error instanceof TaskloomError) throw error;
        // The page would not load, or went away: the target's fault, not the service's.
        const reason = error instanceof Error ? error.message : String(error);
        throw Errors.UPSTREAM_ERROR({ reason: `Inspecting the page failed: ${reason}` }, { cause: error });
      }
    },
  };
}

export type Inspector = ReturnType<typeof createInspector>;
