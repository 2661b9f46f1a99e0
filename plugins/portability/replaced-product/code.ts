// The replaced product's code, rewritten once at import into code taskloom runs with the same value. Pure
// functions: the code is parsed (layers/page-scripts/code-shape.ts), never run.
import { asFunctionBody, evalAsBody } from '../../../layers/page-scripts/code-shape.js';

const js = (text: string) => JSON.stringify(text);

/**
 * A `javascript` value: the product ran it with `eval`, with the page's HTML as `html`. Its value is its last
 * expression statement's (`a; b` is b), so that statement gains a `return`; `html` is given when the code names it.
 */
export function javascriptValue(code: string): { value: string } | { problem: string } {
  const body = evalAsBody(code);
  if (body === undefined) return { problem: 'its JavaScript does not parse' };
  if (!/\bhtml\b/.test(code)) return { value: body };
  return { value: `const html = document.documentElement.outerHTML;\nreturn await (async () => {\n${asFunctionBody(body)}\n})();` };
}

/** The helpers an `if` expression of the product may call, and what they are in the page. */
const CONDITION_HELPERS: Record<string, string> = {
  vars: 'const vars = args.vars;',
  exists: 'const exists = (s) => !!s && !!document.querySelector(s);',
  text: "const text = (s) => (s && document.querySelector(s)?.textContent || '').trim();",
  url: 'const url = () => location.href;',
};

/** An `if` expression of the product: the helpers it uses are defined before it. */
export function conditionValue(expression: string): { value: string } | { problem: string } {
  if (/\bblock\s*\.\s*output\b/.test(expression)) return { problem: 'its condition reads block.output (the previous action\'s output): keep it with a set action and test args.vars' };
  const used = Object.keys(CONDITION_HELPERS).filter((name) => new RegExp(`\\b${name}\\b`).test(expression));
  if (used.length === 0) return { value: expression };
  return { value: `${used.map((name) => CONDITION_HELPERS[name]).join('\n')}\nreturn (\n${expression}\n);` };
}

export interface StructuredCondition {
  conditionVar?: unknown;
  conditionVarType?: unknown;
  conditionOp?: unknown;
  conditionValue?: unknown;
}

/** The product's form-built condition (a variable, a type, an operator, a value) as one expression. */
export function structuredCondition(c: StructuredCondition): { value: string } | { problem: string } {
  const raw = typeof c.conditionVar === 'string' ? c.conditionVar.trim() : '';
  const name = /^\{\$([\w.]+)\}$/.exec(raw)?.[1] ?? raw;
  if (!/^[\w.]+$/.test(name)) return { problem: `its condition variable "${raw}" is not a variable name` };
  const left = `args.vars[${js(name)}]`;
  const right = js(typeof c.conditionValue === 'string' ? c.conditionValue : String(c.conditionValue ?? ''));
  const type = c.conditionVarType ?? 'string';
  const op = typeof c.conditionOp === 'string' ? c.conditionOp : type === 'boolean' ? 'is_true' : 'equals';
  if (type === 'boolean') {
    const truth = `((v) => typeof v === 'string' ? (v.trim() === 'false' ? false : v.trim() === 'true' ? true : v !== '') : !!v)(${left})`;
    if (op === 'is_true' || op === 'is_false') return { value: op === 'is_true' ? truth : `!${truth}` };
  } else if (type === 'number') {
    const ops: Record<string, string> = { equals: '===', not_equals: '!==', gt: '>', gte: '>=', lt: '<', lte: '<=' };
    if (ops[op]) return { value: `((l, r) => Number.isFinite(l) && Number.isFinite(r) && l ${ops[op]} r)(Number(${left}), Number(${right}))` };
  } else if (type === 'string') {
    const l = `String(${left} ?? '')`;
    const forms: Record<string, string> = {
      equals: `${l} === ${right}`, not_equals: `${l} !== ${right}`, contains: `${l}.includes(${right})`,
      starts_with: `${l}.startsWith(${right})`, ends_with: `${l}.endsWith(${right})`,
      matches: `((s) => { try { return new RegExp(${right}).test(s); } catch { return false; } })(${l})`,
    };
    if (forms[op]) return { value: forms[op]! };
  }
  return { problem: `its condition "${String(type)} ${op}" is not one the product offers` };
}

/**
 * The product's extraction script: an async function body that works on the page's HTML, given as
 * `$$data.html()` (and `$$data.url()`, `$$data.document`, `$$data.window`). In taskloom it runs in the page after
 * the actions, with `$$data` built there; `document` and `window` are the live page's.
 */
export function extractionScript(script: string): string {
  return `// Imported: the script below works on the page's HTML, $$data.html() (README "Moving tasks from the product we replace").
const $$data = { html: () => document.documentElement.outerHTML, url: () => location.href, document, window };
return await (async function ($$data) {
${script}
}).call(undefined, $$data);`;
}
