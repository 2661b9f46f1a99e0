// The AI step of the runs' repair ladder (README "Healing"): the provider chain gets the reduced page and the
// fingerprint of the element a broken selector used to match, and answers one CSS selector; the run checks each
// answer on the live page (`accept`) and the chain moves to the next key when it is refused. Every provider call
// is counted, answered or not.
import type { RepairAdvisor } from '../../runs/decorators.js';
import { AiChainFailure, type AiChain } from '../chain.js';
import type { PlannedAttempt } from '../plan.js';
import { cleanSelector } from './clean-selector.js';
import { DEFAULT_HTML_BUDGET_CHARS } from './prompt.js';

export const REPAIR_SYSTEM_PROMPT = [
  'You repair CSS selectors for a browser automation tool.',
  'A selector no longer matches anything on a web page. You get the simplified HTML of the page as it is now and a',
  'fingerprint of the element the selector used to match (tag, role, accessible name, text, attributes, ancestors,',
  'texts around it). Find the same element on the page as it is now.',
  'Answer with exactly one CSS selector that matches that element only, and nothing else: no explanation, no quotes.',
  'If the element is not on the page, answer NONE.',
].join('\n');

export function createRepairAdvisor(chain: AiChain): RepairAdvisor {
  return async (question) => {
    let plan: PlannedAttempt[];
    try {
      plan = await chain.plan();
    } catch {
      return { calls: 0, reason: 'no AI provider is configured' };
    }
    let calls = 0;
    const counted = plan.map((attempt) => ({
      ...attempt,
      provider: { id: attempt.provider.id, complete: (request: Parameters<typeof attempt.provider.complete>[0]) => { calls++; return attempt.provider.complete(request); } },
    }));
    const { reduceHtml } = await import('./reduce-html.js');
    const html = reduceHtml(question.html, DEFAULT_HTML_BUDGET_CHARS);
    const user = `Broken selector: ${question.oldSelector} (a ${question.actionType} action)\nPage: ${question.url}\n`
      + `Fingerprint: ${JSON.stringify(question.fingerprint)}\n\nHTML:\n${html}`;
    try {
      const answer = await chain.ask({
        system: REPAIR_SYSTEM_PROMPT, user, signal: question.signal,
        accept: async (text) => {
          const selector = cleanSelector(text);
          if (!selector || /^none$/i.test(selector)) return { ok: false, reason: 'no selector in the answer' };
          const verdict = await question.accept(selector);
          return verdict.ok ? { ok: true, value: selector } : verdict;
        },
      }, counted);
      return { selector: answer.value, calls };
    } catch (error) {
      if (error instanceof AiChainFailure) return { calls, reason: error.message };
      throw error;
    }
  };
}
