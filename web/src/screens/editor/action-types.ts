import type { Action } from '../../api/types';

export type ActionField = 'selector' | 'value' | 'key' | 'varName' | 'timeoutMs' | 'target' | 'frame';

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
const longTimeout: FieldSpec = { ...timeout, hint: 'Default 30000' };
/** For every action with a selector: the iframe(s) it works in. */
const frame: FieldSpec = { field: 'frame', label: 'Frame', hint: 'Optional: selector of the iframe it is in; nested: outer >> inner' };

/** Every action type the runner understands (decisions.md, "Actions"), in palette order. */
export const ACTION_TYPES: ActionTypeSpec[] = [
  { type: 'navigate', label: 'Navigate', help: 'Go to a URL', fields: [{ field: 'value', label: 'URL', hint: 'May hold {$name} placeholders' }] },
  { type: 'click', label: 'Click', help: 'Click the first matching element', fields: [selector(), frame, timeout] },
  { type: 'hover', label: 'Hover', help: 'Move the mouse over an element', fields: [selector(), frame, timeout] },
  { type: 'type', label: 'Type', help: 'Type text into a field', fields: [selector(), { field: 'value', label: 'Text' }, frame, timeout] },
  { type: 'press', label: 'Press key', help: 'Press a key, optionally on an element', fields: [{ field: 'key', label: 'Key', hint: 'For example Enter, Tab, ArrowDown' }, selector('Optional: the element to press it on'), frame] },
  { type: 'wait', label: 'Wait', help: 'Pause for some milliseconds', fields: [{ field: 'value', label: 'Milliseconds' }] },
  { type: 'wait_selector', label: 'Wait for element', help: 'Wait until an element is visible', fields: [selector(), frame, timeout] },
  { type: 'scroll', label: 'Scroll', help: 'Scroll an element into view, or the page by pixels', fields: [selector('Optional: the element to scroll into view'), { field: 'value', label: 'Pixels', hint: 'Used when no selector is given' }, frame] },
  { type: 'check', label: 'Check', help: 'Tick a checkbox or choose a radio button', fields: [selector(), frame, timeout] },
  { type: 'uncheck', label: 'Uncheck', help: 'Clear a checkbox', fields: [selector(), frame, timeout] },
  { type: 'select', label: 'Select option', help: 'Choose an option of a drop-down list', fields: [selector('CSS selector of the <select>'), { field: 'value', label: 'Option', hint: 'Its value, or else its label' }, frame, timeout] },
  { type: 'double_click', label: 'Double-click', help: 'Double-click the first matching element', fields: [selector(), frame, timeout] },
  { type: 'right_click', label: 'Right-click', help: 'Click with the right button (context menu)', fields: [selector(), frame, timeout] },
  { type: 'drag_and_drop', label: 'Drag and drop', help: 'Drag an element onto another', fields: [selector('CSS selector of the element to drag'), { field: 'target', label: 'Drop onto', hint: 'CSS selector of the element to drop it on' }, frame, timeout] },
  { type: 'reload', label: 'Reload', help: 'Reload the page', fields: [longTimeout] },
  { type: 'wait_navigation', label: 'Wait for navigation', help: 'Wait until the page has moved to another page (one that began after the previous action started counts) and loaded', fields: [longTimeout] },
  { type: 'wait_network_idle', label: 'Wait for network idle', help: 'Wait until no request has been in flight for a while', fields: [{ field: 'value', label: 'Quiet time (ms)', hint: 'Default 500' }, longTimeout] },
  { type: 'javascript', label: 'JavaScript', help: 'Run code in the page; its value is the output', fields: [{ field: 'value', label: 'Code', multiline: true, hint: 'An expression (document.title) or a function body with return' }] },
  { type: 'get_content', label: 'Get content', help: "Read an element's text (trimmed innerText) as the output; keep it with Set variable", fields: [selector(), frame, timeout] },
  { type: 'screenshot', label: 'Screenshot', help: 'Save a screenshot capture', fields: [{ field: 'value', label: 'Area', options: [['', 'Viewport'], ['full', 'Full page']] }] },
  { type: 'set', label: 'Set variable', help: 'Set a variable (empty value: the previous output)', fields: [{ field: 'varName', label: 'Variable name' }, { field: 'value', label: 'Value' }] },
  { type: 'if', label: 'If', help: 'Run the next actions when an expression is true', fields: [{ field: 'value', label: 'Expression', hint: 'JavaScript evaluated in the page (or a body that returns the truth)' }], block: 1 },
  { type: 'else', label: 'Else', help: 'Otherwise branch of an if', fields: [], block: 0 },
  { type: 'foreach', label: 'For each', help: 'Repeat for each matching element ({$loop.index}, {$loop.text})', fields: [selector(), frame], block: 1 },
  { type: 'end', label: 'End', help: 'Closes an if or a for-each', fields: [], block: -1 },
  { type: 'stop', label: 'Stop', help: 'End the run successfully', fields: [] },
  { type: 'upload', label: 'Upload file', help: "Put task files (the Files tab) into a file input", fields: [selector('CSS selector of the <input type=file>'), { field: 'value', label: 'File names', hint: 'Task files, separated by commas' }, timeout] },
  { type: 'download', label: 'Download', help: 'Click an element and keep the file it downloads (a capture of the run)', fields: [selector('The link or button that starts the download'), { field: 'timeoutMs', label: 'Timeout (ms)', number: true, hint: 'Default 60000' }] },
  { type: 'pause_for_human', label: 'Pause for a person', help: 'Hand the live page to a person (a link on the event stream), go on once resumed', fields: [{ field: 'value', label: 'Message', hint: 'What the person should do' }, { field: 'timeoutMs', label: 'Wait at most (ms)', number: true, hint: 'Default 900000 (15 min)' }] },
];

export const specOf = (type: string): ActionTypeSpec =>
  ACTION_TYPES.find((t) => t.type === type) ?? { type, label: type, help: 'Unknown action type', fields: [selector(), { field: 'value', label: 'Value' }] };

/** A one-line reminder of what the action does, for the collapsed card. */
export function actionSummary(action: Action): string {
  const parts = [action.frame && `[${action.frame}]`, action.selector, action.target && `→ ${action.target}`, action.key, action.varName && `${action.varName} =`, action.value]
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
