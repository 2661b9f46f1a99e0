import type { Logger } from '../../kernel/contracts/logger.js';
import type { ProxyChoice } from '../settings/decorators.js';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import { OutboundBlockedError } from '../../kernel/outbound/index.js';
import type { KernelServices } from '../../kernel/services.js';
import type { CaptureTask, CapturedPage, PageCapture } from './offered.js';
import { checkNavigation } from './browse-run.js';
import { ActionError, InvalidUrlError, runActions } from './runner/index.js';
import { fillUrl, timeoutOf, userAgentOf, variablesOf, viewportOf, type RunnableTask } from './task-options.js';

/** A captured page is closed after this long even if nobody calls `close()` (a generation never takes longer). */
export const CAPTURE_SAFETY_MS = 120_000;

export interface PageCaptureDeps {
  services: KernelServices;
  chooseProxy(task: RunnableTask): Promise<ProxyChoice | null>;
  logger: Logger;
}

const MATCH_SCRIPT = 'try { return document.querySelectorAll(args.selector).length; } catch { return 0; }';

/**
 * `app.pageCapture`: the page a task reaches just before one of its actions, live, for generate-selector.
 * A fresh stateless context (no stored cookies), the task's proxy, viewport and user agent. The context stays
 * open inside `withContext` until `close()` or the safety timeout, so the pool still owns its closing.
 */
export function createPageCapture(deps: PageCaptureDeps): PageCapture {
  const { services, logger } = deps;
  return {
    async capture(input: CaptureTask, actionIndex: number, options = {}): Promise<CapturedPage> {
      const task = input as RunnableTask;
      const variables = variablesOf(task);
      const url = fillUrl(task.url, variables);
      await checkTaskUrl(services, url);
      const proxy = await deps.chooseProxy(task);
      let release!: () => void;
      const released = new Promise<void>((resolve) => { release = resolve; });
      let ready!: (page: CapturedPage) => void;
      const opened = new Promise<CapturedPage>((resolve) => { ready = resolve; });

      const done = services.browser.withContext({
        viewport: viewportOf(task), userAgent: userAgentOf(task), proxy: proxy ?? undefined, keepCookies: false,
      }, async (context, signal) => {
        const page = await context.newPage();
        await page.goto(url, timeoutOf(task));
        await runActions(page, {
          actions: task.actions.slice(0, Math.max(0, actionIndex)), variables, mode: String(task.mode ?? 'agent'),
        }, {
          log: (level, message, index) => logger.debug({ actionIndex: index, level }, message),
          saveScreenshot: async () => '', // a preview keeps no captures
          checkNavigation: (target) => checkNavigation(services, target).catch((error: unknown) => {
            throw Errors.INVALID_URL({ reason: error instanceof Error ? error.message : String(error) }, { cause: error });
          }),
          signal,
        });
        const html = String(await page.evaluate('return document.documentElement.outerHTML;', {}));
        let closed = false;
        const ensureOpen = () => { if (closed) throw new Error('the captured page is closed'); };
        ready({
          html,
          async matches(selector) {
            ensureOpen();
            return Number(await page.evaluate(MATCH_SCRIPT, { selector })) || 0;
          },
          // For the inspector, which matches elements on this page.
          async evaluate(body, args) {
            ensureOpen();
            return page.evaluate(body, args);
          },
          async screenshot(shot) {
            ensureOpen();
            return page.screenshot(shot);
          },
          async close() {
            closed = true;
            release();
            await done;
          },
        });
        await released;
      }, { timeoutMs: CAPTURE_SAFETY_MS, signal: options.signal });

      const outcome = await Promise.race([opened.then((page) => ({ page })), done.then((result) => ({ result }))]);
      if ('page' in outcome) return outcome.page;
      const { result } = outcome;
      if (result.status === 'ok') throw new Error('the page closed before it was captured');
      if (result.status === 'timeout') throw new Error(`the page was not ready within ${CAPTURE_SAFETY_MS} ms`);
      if (result.status === 'aborted') throw new Error('the capture was cancelled');
      throw refusedUrl(result.error) ?? result.error;
    },
  };
}

/** The URL of a task sent in a request body, checked against the outbound rule: 400 INVALID_URL when refused. */
export async function checkTaskUrl(services: KernelServices, url: string): Promise<void> {
  try {
    await services.outbound.guard.checkUrl(url);
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw Errors.INVALID_URL({ reason: `body.task.url: ${error.reason}` }, { cause: error });
    throw error;
  }
}

/** A navigate action before the captured one whose URL is invalid or refused: the caller's mistake (400). */
function refusedUrl(error: Error): TaskloomError | undefined {
  if (!(error instanceof ActionError)) return undefined;
  const { cause } = error;
  if (!Errors.INVALID_URL.is(cause) && !(cause instanceof InvalidUrlError)) return undefined;
  return Errors.INVALID_URL({ reason: `body.task.actions[${error.actionIndex}]: ${error.message}` }, { cause: error });
}
