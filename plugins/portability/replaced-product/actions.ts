// The replaced product's actions as taskloom actions (README "Moving tasks from the product we replace"). Pure.
// One of its actions becomes one taskloom action, or a few when taskloom needs two steps for it (a `type` that
// replaces the field's text: a clearing `javascript`, then `type`). What has no equivalent is a problem: the task
// is not imported. What changes nothing the run gives (timing, a screenshot's label) is a note.
import type { Action } from '../../../kernel/contracts/records.js';
import { conditionValue, javascriptValue, structuredCondition } from './code.js';

/** One action as the product exports it (its editor's fields; others are ignored). */
export interface ProductAction {
  id?: unknown; type?: unknown; selector?: unknown; value?: unknown; key?: unknown; varName?: unknown;
  disabled?: unknown; typeMode?: unknown; timeout?: unknown;
  conditionVar?: unknown; conditionVarType?: unknown; conditionOp?: unknown; conditionValue?: unknown;
}

export interface MappedActions {
  actions: Action[];
  problems: string[];
  notes: string[];
}

const js = (text: string) => JSON.stringify(text);
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
/** A variable name as the product may write it, `name` or `{$name}`. */
const varNameOf = (value: unknown) => text(value).trim().replace(/^\{\$([\w.]+)\}$/, '$1');
const COORDINATES = /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/;
/** Placeholders of the product with no taskloom counterpart. */
const FOREIGN_PLACEHOLDERS = /\{\$(block\.output|html|loop\.html|loop\.item)\}/;
/** The product's types with no taskloom equivalent. */
const UNMAPPED_TYPES = new Set(['while', 'repeat', 'on_error', 'csv', 'merge', 'start', 'wait_downloads']);

/** Seconds as the product writes them ("1.5") → milliseconds; undefined when it is not a number. */
function seconds(value: string): number | undefined {
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) && n >= 0 ? Math.round(n * 1000) : undefined;
}

/** `javascript` that runs `body` on the first element matching the CSS selector (nothing when none does). */
const onElement = (selector: string, body: string) =>
  `((el) => { if (el) { ${body} } })((() => { try { return document.querySelector(${js(selector)}); } catch { return null; } })())`;

type One = Omit<Action, 'disabled'>;
type Mapped = One[] | { problem: string };

function mapOne(a: ProductAction, notes: string[]): Mapped {
  const type = text(a.type);
  const selector = text(a.selector).trim();
  const value = text(a.value);
  const timeoutMs = typeof a.timeout === 'number' && Number.isInteger(a.timeout) && a.timeout > 0 ? { timeoutMs: a.timeout } : {};
  const needsSelector = (make: () => Mapped): Mapped => {
    if (selector === '') return { problem: 'it has no selector' };
    if (COORDINATES.test(selector)) return { problem: `it acts at page coordinates (${selector}), which taskloom does not` };
    return make();
  };
  switch (type) {
    case 'navigate': case 'goto':
      return value.trim() ? [{ type: 'navigate', value }] : { problem: 'it has no URL' };
    case 'click': case 'hover':
      return needsSelector(() => [{ type, selector, ...timeoutMs }]);
    case 'type': case 'fill':
      return needsSelector(() => {
        const typing: One = { type: 'type', selector, value, ...timeoutMs };
        if (a.typeMode === 'append') return [typing];
        // The product replaces the field's text; taskloom's `type` appends, so the field is emptied first.
        return [{ type: 'javascript', value: onElement(selector, "if ('value' in el) { el.value = ''; el.dispatchEvent(new Event('input', { bubbles: true })); }") }, typing];
      });
    case 'press':
      return text(a.key) ? [{ type: 'press', key: text(a.key) }] : { problem: 'it has no key' };
    case 'wait': {
      if (value.trim() === '') return [{ type: 'wait', value: '2000' }];
      const ms = seconds(value);
      return ms === undefined ? { problem: `its wait "${value}" is not a number of seconds` } : [{ type: 'wait', value: String(ms) }];
    }
    case 'wait_selector': {
      const ms = value.trim() === '' ? 10_000 : seconds(value);
      if (ms === undefined) return { problem: `its timeout "${value}" is not a number of seconds` };
      return needsSelector(() => [{ type: 'wait_selector', selector, timeoutMs: ms }]);
    }
    case 'select':
      return needsSelector(() => [{ type: 'javascript', value: onElement(selector, `el.value = ${js(value)}; el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true }));`) }]);
    case 'scroll': {
      if (text(a.key)) notes.push('a scroll\'s speed is not kept (taskloom scrolls at once)');
      const pixels = value.trim() === '' ? undefined : Number(value.trim());
      if (pixels !== undefined && !Number.isFinite(pixels)) return { problem: `its amount "${value}" is not a number of pixels` };
      if (pixels === undefined) notes.push('a scroll without an amount scrolls one viewport height (the product scrolled a random 400-800 px)');
      if (selector === '') return [{ type: 'scroll', value: pixels === undefined ? '' : String(pixels) }];
      return [{ type: 'javascript', value: onElement(selector, `el.scrollTop += ${pixels ?? 600};`) }];
    }
    case 'screenshot':
      if (value.trim()) notes.push(`a screenshot's label "${value.trim()}" is not kept (captures are named by the run)`);
      return [{ type: 'screenshot' }];
    case 'javascript': {
      if (value.trim() === '') return [{ type: 'javascript', value: 'undefined' }];
      const mapped = javascriptValue(value);
      return 'problem' in mapped ? mapped : [{ type: 'javascript', value: mapped.value }];
    }
    case 'get_content': {
      const read: One[] = [{ type: 'get_content', selector, ...timeoutMs }];
      const name = varNameOf(a.varName);
      return needsSelector(() => (name ? [...read, { type: 'set', varName: name }] : read));
    }
    case 'set': {
      const name = varNameOf(a.varName);
      if (!name) return { problem: 'it has no variable name' };
      // The previous action's output: taskloom's `set` with an empty value.
      if (value.trim() === '{$block.output}') return [{ type: 'set', varName: name }];
      // The product turns JSON-looking values (42, true, null, [..], {..}) into values, and keeps "" as it is: a
      // `javascript` with that literal, then `set` keeps its value (a `set` with an empty value keeps the output).
      let literal: unknown = value;
      try { literal = JSON.parse(value); } catch { /* text */ }
      if (value !== '' && typeof literal === 'string') return [{ type: 'set', varName: name, value }];
      return [{ type: 'javascript', value: value === '' ? "''" : value }, { type: 'set', varName: name }];
    }
    case 'if': {
      const structured = a.conditionVar || a.conditionOp || a.conditionVarType || a.conditionValue;
      const mapped = structured ? structuredCondition(a) : value.trim() ? conditionValue(value) : { problem: 'it has no condition' };
      return 'problem' in mapped ? mapped : [{ type: 'if', value: mapped.value }];
    }
    case 'else': case 'end':
      return [{ type }];
    case 'foreach':
      if (selector === '') return { problem: 'it loops over a variable\'s list, which taskloom\'s foreach (over elements) does not' };
      return [{ type: 'foreach', selector }];
    case 'stop':
      return value === 'error' ? [{ type: 'javascript', value: "(() => { throw new Error('stopped with an error'); })()" }] : [{ type: 'stop' }];
    default:
      return { problem: UNMAPPED_TYPES.has(type) ? `"${type}" has no taskloom equivalent` : `unknown action type "${type}"` };
  }
}

/** Maps every action; `problems` name each one (1-based, as the product's editor counts) that could not be. */
export function mapActions(list: unknown): MappedActions {
  const out: MappedActions = { actions: [], problems: [], notes: [] };
  if (list === undefined) return out;
  if (!Array.isArray(list)) return { ...out, problems: ['actions is not a list'] };
  list.forEach((raw, index) => {
    const label = `action ${index + 1}`;
    if (!raw || typeof raw !== 'object') {
      out.problems.push(`${label}: not an object`);
      return;
    }
    const action = raw as ProductAction;
    const foreign = FOREIGN_PLACEHOLDERS.exec(JSON.stringify(action));
    const mapped = foreign && !(action.type === 'set' && text(action.value).trim() === '{$block.output}')
      ? { problem: `it uses {$${foreign[1]}}, which taskloom does not have` }
      : mapOne(action, out.notes);
    if ('problem' in mapped) {
      out.problems.push(`${label} (${text(action.type) || 'no type'}): ${mapped.problem}`);
      return;
    }
    const id = typeof action.id === 'string' && action.id ? action.id.slice(0, 200) : undefined;
    mapped.forEach((one, part) => {
      const next: Action = { ...one };
      if (id) next.id = part === mapped.length - 1 ? id : `${id}-${part + 1}`;
      if (action.disabled === true) next.disabled = true;
      out.actions.push(next);
    });
  });
  out.notes = [...new Set(out.notes)];
  return out;
}
