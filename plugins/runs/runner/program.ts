// Turns the flat action list into blocks, checking it before anything runs. Decisions:
// - `end` closes the innermost open `if` or `foreach`; `else` belongs to the innermost open block, which
//   must be an `if` without an `else` yet. An unbalanced list fails with an ActionError at the offending
//   `else`/`end`, or at the opener left without its `end`.
// - `else` and `end` are structure: their `disabled` flag is ignored. A disabled `if`/`foreach` skips its
//   whole block (both branches).
// - Required fields are checked here for every action that could run (not disabled, not inside a disabled
//   block): navigate/wait/javascript/if need `value`, click/hover/type/wait_selector/foreach need
//   `selector` (get_content, upload and download too), press needs `key`, set needs `varName`, pause_for_human needs `value` (its message). Unknown types fail too.
import { actionLabel } from '../../../layers/action-label/action-label.js';
// - check, uncheck, select, double_click, right_click and drag_and_drop need `selector`, drag_and_drop `target`
//   too; `frame` is only for the actions that name an element, with a selector (web-steps.ts).
import type { Action } from '../../../kernel/contracts/records.js';
import { actionError } from './types.js';
import { SELECTOR_TYPES } from './web-steps.js';

export type ProgramNode =
  | { kind: 'action'; index: number; action: Action }
  | { kind: 'if'; index: number; action: Action; then: ProgramNode[]; otherwise: ProgramNode[]; endIndex: number }
  | { kind: 'foreach'; index: number; action: Action; body: ProgramNode[]; endIndex: number };

type BlockNode = Extract<ProgramNode, { kind: 'if' | 'foreach' }>;

interface Frame {
  node: BlockNode;
  /** Where the block's actions go now (`then`, `otherwise` or `body`). */
  target: ProgramNode[];
  hasElse: boolean;
  /** This block or one around it is disabled: its actions never run. */
  inert: boolean;
}

const REQUIRED: Partial<Record<string, keyof Action>> = {
  navigate: 'value', wait: 'value', javascript: 'value', if: 'value',
  click: 'selector', hover: 'selector', type: 'selector', wait_selector: 'selector', foreach: 'selector', get_content: 'selector',
  press: 'key', set: 'varName', pause_for_human: 'value', upload: 'selector', download: 'selector',
  check: 'selector', uncheck: 'selector', select: 'selector', double_click: 'selector', right_click: 'selector', drag_and_drop: 'selector',
};
/** The types this runner understands; a test keeps it equal to the tasks plugin's ACTION_TYPES. */
export const RUNNER_ACTION_TYPES = [
  'navigate', 'click', 'hover', 'type', 'press', 'wait', 'wait_selector', 'scroll',
  'javascript', 'screenshot', 'set', 'if', 'else', 'end', 'foreach', 'stop', 'pause_for_human',
  'get_content', 'upload', 'download',
  'check', 'uncheck', 'select', 'double_click', 'right_click', 'drag_and_drop', 'reload', 'wait_navigation', 'wait_network_idle',
] as const;
const KNOWN = new Set<string>(RUNNER_ACTION_TYPES);

export function parseProgram(actions: readonly Action[]): ProgramNode[] {
  const root: ProgramNode[] = [];
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  actions.forEach((action, index) => {
    const { type } = action;
    if (!KNOWN.has(type)) throw actionError(index, type, `unknown action type "${type}"`);
    const inert = (top()?.inert ?? false) || action.disabled === true;
    const field = REQUIRED[type];
    if (field && !inert && !action[field]) throw actionError(index, type, `"${type}" needs a ${field}`);
    if (type === 'drag_and_drop' && !inert && !action.target) throw actionError(index, type, '"drag_and_drop" needs a target');
    if (action.frame && !inert && !(SELECTOR_TYPES.has(type) && action.selector)) throw actionError(index, type, `"frame" is only for an action with a selector`);
    if (type === 'else') {
      const frame = top();
      if (!frame) throw actionError(index, type, '"else" without an open "if"');
      if (frame.node.kind !== 'if') throw actionError(index, type, `"else" inside the "foreach" at ${actionLabel(frame.node.index)} needs its own "if"`);
      if (frame.hasElse) throw actionError(index, type, `a second "else" for the "if" at ${actionLabel(frame.node.index)}`);
      frame.hasElse = true;
      frame.target = frame.node.otherwise;
      return;
    }
    if (type === 'end') {
      const frame = stack.pop();
      if (!frame) throw actionError(index, type, '"end" without an open "if" or "foreach"');
      frame.node.endIndex = index;
      return;
    }
    const into = top()?.target ?? root;
    if (type === 'if' || type === 'foreach') {
      const node: BlockNode = type === 'if'
        ? { kind: 'if', index, action, then: [], otherwise: [], endIndex: -1 }
        : { kind: 'foreach', index, action, body: [], endIndex: -1 };
      into.push(node);
      stack.push({ node, target: node.kind === 'if' ? node.then : node.body, hasElse: false, inert });
      return;
    }
    into.push({ kind: 'action', index, action });
  });
  const unclosed = top();
  if (unclosed) throw actionError(unclosed.node.index, unclosed.node.action.type, `"${unclosed.node.action.type}" has no matching "end"`);
  return root;
}

