// Walks the checked program against one page. Decisions:
// - A log line per action as it starts (info, with its index); a disabled action or block is logged as a
//   skip (warn); an unknown placeholder is a warn; a failure is logged (error) before it is thrown, so the
//   caller need not log it again. Lines name actions as a person counts (layers/action-label/action-label.ts).
// - `set` with an empty value takes the latest output of an action that has one (`javascript`, `get_content`),
//   null (with a warn) when there was none; an undefined output is stored as null. A value that is
//   exactly one placeholder keeps its type.
// - foreach counts its matches once, as it starts; each pass then finds the element afresh (its text and
//   path reflect the page as it is then) and the loop ends early, with a warn, when it is gone. Selectors
//   inside a loop are document-wide: `{$loop.selector} .cell` scopes one to the current element.
// - `stop` ends the actions at once, including every loop around it; the extraction still runs.
// - Cancel or run timeout: the signal's reason is thrown unchanged (not an ActionError).
// - mode `scrape`: the actions are neither checked nor run; every other mode runs them.
// - Code (javascript, if, the extraction script) has its placeholders filled as raw text too (template.ts);
//   its log line shows the code as written, so a variable's value stays out of the log.
// - The extraction script gets `args.vars`, runs after the actions with no limit of its own (the run's
//   applies) and fails as an ExtractionError.
import type { Action } from '../../../kernel/contracts/records.js';
import { actionLabel, actionNumber } from '../../../layers/action-label/action-label.js';
import type { BrowserPage } from '../../../kernel/contracts/browser.js';
import { describeAction } from './describe-action.js';
import { LOOP_ITEM, condition, userCode } from './page-scripts.js';
import { parseProgram, type ProgramNode } from './program.js';
import { runHealingStep } from './healing-step.js';
import { evaluateWithin, messageOf, timeoutFor, type Step, type StepEnv } from './steps.js';
import { withFrame } from './web-steps.js';
import { fillTemplate, fillValue, type LoopScope, type TemplateScope } from './template.js';
import { ActionError, ExtractionError, actionError, type RunnerHooks, type RunnerInput, type RunnerOutput } from './types.js';

const CODE_TYPES = new Set(['javascript', 'if']);

export async function runActions(page: BrowserPage, input: RunnerInput, hooks: RunnerHooks): Promise<RunnerOutput> {
  const { signal } = hooks;
  if (signal.aborted) throw signal.reason;
  const variables: Record<string, unknown> = { ...input.variables };
  if (input.watch) input.watch.variables = variables;
  const captures: string[] = [];
  let latest: { value: unknown } | undefined;
  let stopped = false;

  /** Fills the action's placeholders (`set` fills its own value), warning about unknown names. */
  function prepare(index: number, action: Action, loop: LoopScope | null): { step: Step; shown: Step; scope: TemplateScope } {
    const scope: TemplateScope = { variables, loop, now: new Date() };
    const unknown = new Set<string>();
    const fill = (text: string | undefined) => {
      if (text === undefined) return undefined;
      const filled = fillTemplate(text, scope);
      filled.unknown.forEach((name) => unknown.add(name));
      return filled.value;
    };
    const step: Step = {
      type: action.type,
      selector: fill(action.selector),
      value: action.type === 'set' ? action.value : fill(action.value),
      key: fill(action.key),
      target: fill(action.target),
      frame: fill(action.frame),
      timeoutMs: timeoutFor(action.type, action.timeoutMs),
    };
    const label = actionLabel(index, action.type);
    for (const name of unknown) hooks.log('warn', `${label}: unknown variable {$${name}} left as is`, index);
    // Code is logged as written: filled, it could show a variable's value.
    const shown = CODE_TYPES.has(action.type) ? { ...step, value: action.value } : step;
    return { step, shown, scope };
  }

  async function runNodes(nodes: ProgramNode[], loop: LoopScope | null): Promise<void> {
    for (const node of nodes) {
      if (stopped) return;
      if (signal.aborted) throw signal.reason;
      const { index, action } = node;
      if (input.stopAfter !== undefined && index > input.stopAfter) {
        stopped = true;
        return;
      }
      if (action.disabled) {
        const what = node.kind === 'action' ? 'skipped (disabled)'
          : `skipped with its block, actions ${actionNumber(index)}-${actionNumber(node.endIndex)} (disabled)`;
        hooks.log('warn', `${actionLabel(index, action.type)}: ${what}`, index);
        continue;
      }
      try {
        if (node.kind === 'action') await runOne(index, action, loop);
        else if (node.kind === 'if') await runIf(node, loop);
        else await runLoop(node, loop);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof ActionError) throw error;
        throw actionError(index, action.type, messageOf(error), error);
      }
    }
  }

  async function runOne(index: number, action: Action, loop: LoopScope | null): Promise<void> {
    const { step, shown, scope } = prepare(index, action, loop);
    hooks.log('info', describeAction(index, shown, action.varName), index);
    hooks.actionStarted?.(index, action.type, step.selector);
    if (action.type === 'stop') {
      stopped = true;
    } else if (action.type === 'pause_for_human') {
      if (!hooks.pauseForHuman) throw new Error('a run here cannot be handed to a person');
      await hooks.pauseForHuman(step.value ?? '', action.timeoutMs || undefined, index);
    } else if (action.type === 'set') {
      setVariable(index, action, scope);
    } else {
      // Inside a loop the selectors change with each pass: no healing there.
      const result = await runHealingStep(index, step, { page, hooks, args: { vars: variables, loop } }, loop ? undefined : hooks.healing);
      if (result.hasOutput) {
        latest = { value: result.output };
        if (input.watch) input.watch.output = latest;
      }
      if (result.capture !== undefined) captures.push(result.capture);
    }
    await hooks.actionEnded?.(index, action.type);
  }

  function setVariable(index: number, action: Action, scope: TemplateScope): void {
    const name = action.varName!;
    if (action.value) {
      const filled = fillValue(action.value, scope);
      for (const unknown of filled.unknown) hooks.log('warn', `${actionLabel(index, 'set')}: unknown variable {$${unknown}} left as is`, index);
      variables[name] = filled.value;
    } else if (latest) {
      variables[name] = latest.value === undefined ? null : latest.value;
    } else {
      hooks.log('warn', `${actionLabel(index, 'set')}: no earlier action had an output; ${name} is null`, index);
      variables[name] = null;
    }
  }

  async function runIf(node: Extract<ProgramNode, { kind: 'if' }>, loop: LoopScope | null): Promise<void> {
    const { step, shown } = prepare(node.index, node.action, loop);
    const env: StepEnv = { page, hooks, args: { vars: variables, loop } };
    const truth = await evaluateWithin(env, condition(step.value ?? ''), env.args, step.timeoutMs, 'the condition');
    hooks.log('info', `${describeAction(node.index, shown)} → ${truth ? 'true' : 'false'}`, node.index);
    await runNodes(truth === true ? node.then : node.otherwise, loop);
  }

  async function runLoop(node: Extract<ProgramNode, { kind: 'foreach' }>, outer: LoopScope | null): Promise<void> {
    const { step } = prepare(node.index, node.action, outer);
    const selector = step.selector ?? '';
    const env = await withFrame(step, { page, hooks, args: {} });
    const what = `the elements matching "${selector}"`;
    let count = -1;
    for (let index = 0; count < 0 || index < count; index++) {
      const found = await evaluateWithin(env, LOOP_ITEM, { selector, index }, step.timeoutMs, what) as LoopItem;
      if (count < 0) {
        count = found.count;
        hooks.log('info', `${describeAction(node.index, step)} → ${count} element${count === 1 ? '' : 's'}`, node.index);
      }
      const label = actionLabel(node.index, 'foreach');
      if (!found.item) {
        if (index < count) hooks.log('warn', `${label}: element ${index + 1} of ${count} is gone; the loop ends early`, node.index);
        return;
      }
      const loop: LoopScope = { index, number: index + 1, count, ...found.item, parent: outer };
      hooks.log('debug', `${label}: pass ${index + 1} of ${count}`, node.index);
      await runNodes(node.body, loop);
      if (stopped) return;
    }
  }

  if (input.mode === 'scrape') {
    if (input.actions.length > 0) hooks.log('info', `scrape mode: the ${input.actions.length} actions are not run`);
  } else {
    try {
      await runNodes(parseProgram(input.actions), null);
    } catch (error) {
      if (error instanceof ActionError) hooks.log('error', error.message, error.actionIndex);
      throw error;
    }
  }
  const data = input.extractionScript ? await extract(input.extractionScript) : undefined;
  return { data, stopped, variables, captures };

  async function extract(written: string): Promise<unknown> {
    hooks.log('info', 'extraction script');
    const filled = fillTemplate(written, { variables, loop: null, now: new Date() });
    for (const name of filled.unknown) hooks.log('warn', `extraction script: unknown variable {$${name}} left as is`);
    try {
      return await evaluateWithin({ page, hooks, args: {} }, userCode(filled.value), { vars: variables }, 0, 'the extraction script');
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const failed = new ExtractionError(`Extraction script: ${messageOf(error)}`, { cause: error });
      hooks.log('error', failed.message);
      throw failed;
    }
  }
}

interface LoopItem {
  count: number;
  item: { text: string; selector: string } | null;
}
