// Sources evaluated inside the page through BrowserPage.evaluate (never in the service). Each is a function
// body receiving `args`. Decisions:
// - User code may be a function body or a lone expression (code-shape.ts); `if` takes a body too (its value
//   is the truth).
// - User code (javascript, if, extraction) is wrapped so its value comes back JSON-normalised in the page
//   (`JSON.parse(JSON.stringify(v))`): a DOM node, Date or NaN then means the same on both engines, and a
//   circular value fails with a clear message. `undefined` stays undefined.
// - `foreach` and `scroll` find elements in the page with the selector forms both engines accept: CSS,
//   XPath (`//…`, `(//…)`, `xpath=…`) and `text=…` (unquoted: case-insensitive substring of the normalised
//   text; quoted: the whole text; the innermost matching elements). Shadow DOM is not searched.

import { asFunctionBody } from '../../../layers/page-scripts/code-shape.js';

/** In-page helpers: `__all(selector)` → matching elements, `__path(el)` → a CSS path to `el`. */
export const HELPERS = `
const __all = (selector) => {
  const byXPath = (expr) => {
    const found = document.evaluate(expr, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    const out = [];
    for (let i = 0; i < found.snapshotLength; i++) if (found.snapshotItem(i) instanceof Element) out.push(found.snapshotItem(i));
    return out;
  };
  if (selector.startsWith('xpath=')) return byXPath(selector.slice(6));
  if (selector.startsWith('//') || selector.startsWith('(//')) return byXPath(selector);
  if (selector.startsWith('text=')) {
    const raw = selector.slice(5);
    const quoted = raw.length > 1 && (raw[0] === '"' || raw[0] === "'") && raw.endsWith(raw[0]);
    const norm = (s) => s.replace(/\\s+/g, ' ').trim();
    const want = quoted ? norm(raw.slice(1, -1)) : norm(raw).toLowerCase();
    const hit = (el) => {
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE'].includes(el.tagName)) return false;
      const text = norm(el.textContent || '');
      return quoted ? text === want : text.toLowerCase().includes(want);
    };
    const hits = [...document.querySelectorAll('body *')].filter(hit);
    return hits.filter((el) => ![...el.children].some(hit));
  }
  return [...document.querySelectorAll(selector)];
};
const __path = (el) => {
  const parts = [];
  for (let node = el; node instanceof Element; node = node.parentElement) {
    if (node.id && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) { parts.unshift('#' + CSS.escape(node.id)); break; }
    if (node === document.documentElement) { parts.unshift('html'); break; }
    let n = 1;
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === node.localName) n++;
    parts.unshift(CSS.escape(node.localName) + ':nth-of-type(' + n + ')');
  }
  return parts.join(' > ');
};
`;

/** Runs `code` (a function body or a lone expression) with `args`; resolves to its JSON-normalised value. */
export function userCode(code: string): string {
  return `const __value = await (async function (args) {\n${asFunctionBody(code)}\n}).call(undefined, args);
const __json = JSON.stringify(__value);
return __json === undefined ? undefined : JSON.parse(__json);`;
}

/** Evaluates `code` (an expression, or a body that returns the truth) with `args` (await allowed); resolves to a boolean. */
export function condition(code: string): string {
  return `return !!(await (async function (args) {\n${asFunctionBody(code)}\n}).call(undefined, args));`;
}

/** args `{ selector, index }` → `{ count, item?: { text, selector } }` for the element at `index`. */
export const LOOP_ITEM = `${HELPERS}
const els = __all(args.selector);
const el = els[args.index];
return { count: els.length, item: el ? { text: (el.innerText ?? el.textContent ?? '').trim(), selector: __path(el) } : null };`;

/** args `{ selector }`: scrolls the first match into the middle of the viewport. */
export const SCROLL_INTO_VIEW = `${HELPERS}
const el = __all(args.selector)[0];
if (!el) throw new Error('no element matches ' + args.selector);
el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });`;

/** args `{ pixels }` (null: one viewport height): scrolls the page down (negative: up). */
export const SCROLL_BY = `window.scrollBy({ top: args.pixels ?? window.innerHeight, left: 0, behavior: 'instant' });`;

/**
 * args `{ selector, whenVisible? }`: focuses the first match and puts the caret at the end of its text, so `type`
 * appends on both engines (Playwright otherwise moves the caret to the start of an input it focuses). Resolves
 * `focused`; `engine` for a selector the page cannot resolve itself (an engine-only form: left to the engine);
 * with `whenVisible`, `wait` (nothing done) while the first match is missing or not visible as the engines
 * judge it (a box with `display: contents` counts as not visible: the engine decides then).
 */
export const CARET_AT_END = `${HELPERS}
let el;
try { el = __all(args.selector)[0]; } catch { return 'engine'; }
if (args.whenVisible) {
  const style = el && getComputedStyle(el);
  const rect = el && el.getBoundingClientRect();
  const shown = el && style.display !== 'contents' && style.visibility === 'visible'
    && (typeof el.checkVisibility !== 'function' || el.checkVisibility()) && rect.width > 0 && rect.height > 0;
  if (!shown) return 'wait';
}
if (!el) return 'engine';
el.focus();
if (typeof el.value === 'string' && typeof el.setSelectionRange === 'function') {
  try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* types without a caret (email, number) */ }
} else if (el.isContentEditable) {
  const range = document.createRange();
  range.selectNodeContents(el);
  range.collapse(false);
  getSelection().removeAllRanges();
  getSelection().addRange(range);
}
return 'focused';`;
