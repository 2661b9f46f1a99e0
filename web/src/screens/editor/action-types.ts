import type { Action } from '../../api/types';

export type ActionField = 'selector' | 'value' | 'key' | 'varName' | 'timeoutMs';

export interface FieldSpec {
  field: ActionField;
  label: string;
  hint?: string;
  multiline?: boolean;
  number?: boolean;
  options?: Array<[string, string]>;
}

export interface ActionTypeSpec {
  type: string;
  label: string;
  help: string;
  fields: FieldSpec[];
  /** Opens (+1) or closes (-1) a block, for indentation. */
  block?: 1 | -1 | 0;
}

const selector = (hint = 'CSS selector of the element'): FieldSpec => ({ field: 'selector', label: 'Selector', hint });
const timeout: FieldSpec = { field: 'timeoutMs', label: 'Timeout (ms)', number: true, hint: 'Default 10000' };

/** Every action type the runner understands (decisions.md, "Actions"), in palette order. */
export const ACTION_TYPES: ActionTypeSpec[] = [
  { type: 'navigate', label: 'Navigate', help: 'Go to a URL', fields: [{ field: 'value', label: 'URL', hint: 'May hold {$name} placeholders' }] },
  { type: 'click', label: 'Click', help: 'Click the first matching element', fields: [selector(), timeout] },
  { type: 'hover', label: 'Hover', help: 'Move the mouse over an element', fields: [selector(), timeout] },
  { type: 'type', label: 'Type', help: 'Type text into a field', fields: [selector(), { field: 'value', label: 'Text' }, timeout] },
  { type: 'press', label: 'Press key', help: 'Press a key, optionally on an element', fields: [{ field: 'key', label: 'Key', hint: 'For example Enter, Tab, ArrowDown' }, selector('Optional: the element to press it on')] },
  { type: 'wait', label: 'Wait', help: 'Pause for some milliseconds', fields: [{ field: 'value', label: 'Milliseconds' }] },
  { type: 'wait_selector', label: 'Wait for element', help: 'Wait until an element is visible', fields: [selector(), timeout] },
  { type: 'scroll', label: 'Scroll', help: 'Scroll an element into view, or the page by pixels', fields: [selector('Optional: the element to scroll into view'), { field: 'value', label: 'Pixels', hint: 'Used when no selector is given' }] },
  { type: 'javascript', label: 'JavaScript', help: 'Run code in the page; its return value is the output', fields: [{ field: 'value', label: 'Function body', multiline: true }] },
  { type: 'screenshot', label: 'Screenshot', help: 'Save a screenshot capture', fields: [{ field: 'value', label: 'Area', options: [['', 'Viewport'], ['full', 'Full page']] }] },
  { type: 'set', label: 'Set variable', help: 'Set a variable (empty value: the previous output)', fields: [{ field: 'varName', label: 'Variable name' }, { field: 'value', label: 'Value' }] },
  { type: 'if', label: 'If', help: 'Run the next actions when an expression is true', fields: [{ field: 'value', label: 'Expression', hint: 'JavaScript evaluated in the page' }], block: 1 },
  { type: 'else', label: 'Else', help: 'Otherwise branch of an if', fields: [], block: 0 },
  { type: 'foreach', label: 'For each', help: 'Repeat for each matching element ({$loop.index}, {$loop.text})', fields: [selector()], block: 1 },
  { type: 'end', label: 'End', help: 'Closes an if or a for-each', fields: [], block: -1 },
  { type: 'stop', label: 'Stop', help: 'End the run successfully', fields: [] },
];

export const specOf = (type: string): ActionTypeSpec =>
  ACTION_TYPES.find((t) => t.type === type) ?? { type, label: type, help: 'Unknown action type', fields: [selector(), { field: 'value', label: 'Value' }] };

/** A one-line reminder of what the action does, for the collapsed card. */
export function actionSummary(action: Action): string {
  const parts = [action.selector, action.key, action.varName && `${action.varName} =`, action.value]
    .filter((p): p is string => typeof p === 'string' && p !== '');
  const text = parts.join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Nesting depth of each action (if/foreach open, end closes, else sits at the outer level). */
export function depths(actions: Action[]): number[] {
  let depth = 0;
  return actions.map((action) => {
    const block = specOf(action.type).block;
    if (block === -1) depth = Math.max(0, depth - 1);
    const mine = block === 0 ? Math.max(0, depth - 1) : depth;
    if (block === 1) depth++;
    return mine;
  });
}

export const newActionId = () => `act_${Math.random().toString(36).slice(2, 10)}`;
