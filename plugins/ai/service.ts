import { Errors, TaskloomError } from '../../kernel/errors.js';
import { AiChainFailure, type AiChain } from './chain.js';
import type { CaptureTask, CapturedPage, PageCapture } from '../runs/decorators.js';
import { SCRIPT_SYSTEM_PROMPT, acceptScript, scriptUserPrompt } from './script.js';
import { acceptAnswer, acceptSelectorOn } from './selector/accept-selector.js';
import { DEFAULT_HTML_BUDGET_CHARS, SELECTOR_SYSTEM_PROMPT, selectorUserPrompt } from './selector/prompt.js';

export interface SelectorInput {
  task: CaptureTask;
  actionIndex: number;
  prompt: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The two generators without HTTP. Errors are the catalogue's, as the spec and decisions.md give them. */
export function createAiService(chain: AiChain, options: { htmlBudgetChars?: number } = {}) {
  const budget = options.htmlBudgetChars ?? DEFAULT_HTML_BUDGET_CHARS;

  return {
    /** NO_AI_PROVIDER (400) without keys; AI_PROVIDERS_FAILED (502) when no answer parsed. */
    async generateScript(description: string, signal?: AbortSignal): Promise<string> {
      const plan = await chain.plan();
      try {
        const answer = await chain.ask({ system: SCRIPT_SYSTEM_PROMPT, user: scriptUserPrompt(description), accept: acceptScript, signal }, plan);
        return answer.value;
      } catch (error) {
        if (error instanceof AiChainFailure) throw Errors.AI_PROVIDERS_FAILED({ reason: error.message });
        throw error;
      }
    },

    /**
     * VALIDATION_ERROR for an actionIndex past the actions; NO_AI_PROVIDER without keys; the capture's own
     * errors (INVALID_URL for a task URL or navigate action that is invalid or refused by the outbound rule, and
     * for a refused proxy; PROXY_NOT_FOUND); AI_FAILED (500) when the browser layer is missing, the page cannot
     * be captured, or no provider's selector matches it.
     */
    async generateSelector(
      input: SelectorInput, capture: PageCapture | undefined, signal?: AbortSignal,
      /** Told the selector taken while its page is still open (healing fingerprints its element); its failure is ignored. */
      taken?: (page: CapturedPage, selector: string) => Promise<void>,
    ): Promise<string> {
      const { task, actionIndex, prompt } = input;
      if (actionIndex > task.actions.length) {
        throw Errors.VALIDATION_ERROR({ message: `body.actionIndex is ${actionIndex} but the task has ${task.actions.length} actions` });
      }
      const plan = await chain.plan();
      if (!capture) {
        throw Errors.AI_FAILED({ reason: 'the browser layer is not available: no page can be captured for generate-selector' });
      }
      let page: CapturedPage;
      try {
        page = await capture.capture(task, actionIndex, { signal });
      } catch (error) {
        if (error instanceof TaskloomError) throw error; // the caller's mistake, as the capture worded it
        throw Errors.AI_FAILED({ reason: `DOM extraction failed: ${messageOf(error)}` });
      }
      try {
        // The HTML parser loads with the first generated selector, not with the service.
        const { reduceHtml } = await import('./selector/reduce-html.js');
        const html = reduceHtml(page.html, budget);
        if (html === '') throw Errors.AI_FAILED({ reason: 'DOM extraction failed: the page has no content' });
        const answer = await chain.ask({
          system: SELECTOR_SYSTEM_PROMPT,
          user: selectorUserPrompt(prompt, task.url, html),
          accept: acceptAnswer(acceptSelectorOn(page)),
          signal,
        }, plan);
        await taken?.(page, answer.value).catch(() => undefined);
        return answer.value;
      } catch (error) {
        if (error instanceof AiChainFailure) throw Errors.AI_FAILED({ reason: `every AI provider failed: ${error.message}` });
        if (Errors.AI_FAILED.is(error)) throw error;
        throw Errors.AI_FAILED({ reason: `the captured page could not be checked: ${messageOf(error)}` });
      } finally {
        await page.close().catch(() => undefined);
      }
    },
  };
}

export type AiService = ReturnType<typeof createAiService>;
