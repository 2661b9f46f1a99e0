// What the task generator (task-generator.ts) accepts from a provider as the next action: the action types a
// generated task may use, how the prompt names them, and the parse of an answer into one of them.
import type { Action } from '../../kernel/contracts/records.js';
import { stripFences } from './answer.js';

/** Action types that act on one element: their `selector` (and a drag's `target`) must match exactly one. */
export const SELECTOR_TYPES = new Set([
  'click', 'double_click', 'right_click', 'hover', 'type', 'press', 'check', 'uncheck', 'select', 'drag_and_drop',
  'wait_selector', 'get_content',
]);
const KEPT_TYPES = new Set([...SELECTOR_TYPES, 'navigate', 'wait_navigation']);

/** The actions as the system prompt lists them, one JSON shape each. */
export const PROMPT_ACTIONS = [
  '{"type":"click","selector":"..."}, {"type":"double_click","selector":"..."}, {"type":"right_click","selector":"..."},',
  '{"type":"hover","selector":"..."}, {"type":"type","selector":"...","value":"..."}, {"type":"press","selector":"...","key":"Enter"},',
  '{"type":"check","selector":"..."}, {"type":"uncheck","selector":"..."}, {"type":"select","selector":"...","value":"option value or label"},',
  '{"type":"drag_and_drop","selector":"...","target":"..."}, {"type":"wait_selector","selector":"..."},',
  '{"type":"get_content","selector":"..."} (its text becomes the output), {"type":"navigate","value":"https://..."},',
  '{"type":"wait_navigation"} (after an action that leaves the page).',
].join('\n');

export type Proposal = { done: true } | { done: false; action: Action };

/** The answer as the next action, or why it cannot be one. */
export function parseProposal(text: string): Proposal | string {
  let value: unknown;
  try {
    value = JSON.parse(stripFences(text));
  } catch {
    return 'not a JSON object';
  }
  const raw = value as Record<string, unknown> | null;
  if (!raw || typeof raw !== 'object' || typeof raw.type !== 'string') return 'no action type';
  if (raw.type === 'done') return { done: true };
  if (!KEPT_TYPES.has(raw.type)) return `the action type ${raw.type} is not one a generated task uses`;
  const action: Action = { type: raw.type };
  for (const field of ['selector', 'value', 'key', 'target'] as const) if (typeof raw[field] === 'string') action[field] = raw[field] as string;
  if (SELECTOR_TYPES.has(action.type) && !action.selector) return `a ${action.type} needs a selector`;
  if (['type', 'navigate', 'select'].includes(action.type) && action.value === undefined) return `a ${action.type} needs a value`;
  if (action.type === 'press' && !action.key) return 'a press needs a key';
  if (action.type === 'drag_and_drop' && !action.target) return 'a drag_and_drop needs a target';
  return { done: false, action };
}

/** The selectors of `action` that must each match exactly one element on the page. */
export function selectorsToCheck(action: Action): string[] {
  return [action.selector, action.type === 'drag_and_drop' ? action.target : undefined].filter((s): s is string => !!s);
}
