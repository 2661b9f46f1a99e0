// "Generate the whole task" (README "Healing"): from a goal in plain words and a start URL, the provider chain
// proposes one action at a time on the live page; each proposal is checked there before it is kept (a selector
// must match exactly one element), and the element of each kept selector is fingerprinted. The draft is saved as a
// task (its fingerprints with it), so later runs replay it without AI and repair it like any task.
import crypto from 'node:crypto';
import type { Action, TaskRecord } from '../../kernel/contracts/records.js';
import type { DocumentStore, TaskStore } from '../../kernel/contracts/storage.js';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import { FINGERPRINT_BODY, rememberFingerprint, type ElementFingerprint, type TaskHealingRecord } from '../../layers/healing/index.js';
import type { CapturedPage, PageCapture } from '../runs/decorators.js';
import { AiChainFailure, type AiChain } from './chain.js';
import { DEFAULT_HTML_BUDGET_CHARS } from './selector/prompt.js';
import { parseProposal, PROMPT_ACTIONS, selectorsToCheck, type Proposal } from './task-proposal.js';

export const TASK_SYSTEM_PROMPT = [
  'You build a browser automation task one action at a time.',
  'You get a goal, the actions taken so far and the simplified HTML of the page as it is now.',
  'Answer with exactly one JSON object, nothing else: the next action, or {"type":"done"} when the goal is reached.',
  `Actions: ${PROMPT_ACTIONS}`,
  'Selectors are CSS and must match exactly one element: prefer ids, data-testid, name, aria-label, placeholder.',
].join('\n');

export interface GeneratedTask {
  task: TaskRecord;
  /** Provider calls made in all. */
  aiCalls: number;
  /** Proposals refused on the live page, in order. */
  refused: string[];
}

export async function generateTask(deps: {
  chain: AiChain; capture: PageCapture | undefined; tasks: TaskStore; healing: DocumentStore<TaskHealingRecord> | undefined;
}, input: { goal: string; url: string; name?: string; maxSteps: number }, signal: AbortSignal): Promise<GeneratedTask> {
  const plan = await deps.chain.plan();
  if (!deps.capture) throw Errors.AI_FAILED({ reason: 'the browser layer is not available: no page can be captured to generate a task' });
  let calls = 0;
  const counted = plan.map((attempt) => ({
    ...attempt,
    provider: { id: attempt.provider.id, complete: (request: Parameters<typeof attempt.provider.complete>[0]) => { calls++; return attempt.provider.complete(request); } },
  }));
  const { reduceHtml } = await import('./selector/reduce-html.js');
  const actions: Action[] = [];
  const fingerprints = new Map<number, { selector: string; fingerprint: ElementFingerprint }>();
  const refused: string[] = [];
  for (let step = 0; step < input.maxSteps; step++) {
    let page: CapturedPage;
    try {
      page = await deps.capture.capture({ url: input.url, actions }, actions.length, { signal });
    } catch (error) {
      if (error instanceof TaskloomError) throw error;
      throw Errors.AI_FAILED({ reason: `the page after ${actions.length} actions could not be reached: ${error instanceof Error ? error.message : String(error)}` });
    }
    let proposal: Proposal;
    try {
      const user = `Goal: ${input.goal}\nStart: ${input.url}\nActions so far: ${JSON.stringify(actions)}\n\nHTML:\n${reduceHtml(page.html, DEFAULT_HTML_BUDGET_CHARS)}`;
      const answer = await deps.chain.ask<Proposal>({
        system: TASK_SYSTEM_PROMPT, user, signal,
        accept: async (text) => {
          const parsed = parseProposal(text);
          if (typeof parsed === 'string') return { ok: false, reason: parsed };
          for (const selector of parsed.done ? [] : selectorsToCheck(parsed.action)) {
            const count = await page.matches(selector);
            if (count !== 1) {
              refused.push(`${selector} (${count} matches)`);
              return { ok: false, reason: `${selector} matches ${count} elements, not exactly one` };
            }
          }
          return { ok: true, value: parsed };
        },
      }, counted);
      proposal = answer.value;
      if (!proposal.done && proposal.action.selector && page.evaluate) {
        const fingerprint = await page.evaluate(FINGERPRINT_BODY, { selector: proposal.action.selector }).catch(() => null) as ElementFingerprint | null;
        if (fingerprint) fingerprints.set(actions.length, { selector: proposal.action.selector, fingerprint });
      }
    } catch (error) {
      if (error instanceof AiChainFailure) throw Errors.AI_FAILED({ reason: `step ${step + 1}: every AI provider failed: ${error.message}` });
      throw error;
    } finally {
      await page.close().catch(() => undefined);
    }
    if (proposal.done) break;
    actions.push(proposal.action);
  }
  const at = new Date().toISOString();
  const task: TaskRecord = {
    id: `task_${crypto.randomBytes(12).toString('base64url')}`, name: input.name ?? input.goal.slice(0, 200), url: input.url, mode: 'agent',
    actions, description: `Generated from the goal: ${input.goal}`.slice(0, 2000), createdAt: at, updatedAt: at, versions: [],
  };
  await deps.tasks.put(task);
  if (deps.healing) {
    for (const [index, { selector, fingerprint }] of fingerprints) await rememberFingerprint(deps.healing, task.id, index, selector, fingerprint);
  }
  return { task, aiCalls: calls, refused };
}
