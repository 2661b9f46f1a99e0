import { UNIQUE_CSS_SOURCE } from '../../layers/page-scripts/unique-css.js';

/**
 * The inspector's matching, run inside the page as the body of an async function of `args`
 * (`{ hint, limit, highlight, keepMs }`). Plain JavaScript in a string: compiled by the page, so no
 * transpiler helper can leak into it. Answers `{ candidates: [{ selector, xpath, confidence, tag, text }] }`.
 *
 * Stages, in the interface's order, each with its own confidence ceiling so earlier stages rank first:
 *  1. the hint as a CSS selector (querySelectorAll; an invalid selector skips the stage)      up to 1.0
 *  2. the attributes name, placeholder, aria-label, title, alt, value, data-testid, data-test-id up to 0.9
 *  3. the visible text of button, a, label, span, div, h1-h4, li, p                           up to 0.85
 */
export const MATCH_SCRIPT = String.raw`
${UNIQUE_CSS_SOURCE}
const ATTRIBUTES = ['name', 'placeholder', 'aria-label', 'title', 'alt', 'value', 'data-testid', 'data-test-id'];
const TEXT_TAGS = 'button, a, label, span, div, h1, h2, h3, h4, li, p';
const ACTIONABLE = new Set(['button', 'a', 'label']);
const LONGEST_TEXT = 300;
const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().toLowerCase();
const wordsOf = (s) => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
const hintRaw = String(args.hint).trim();
const hint = norm(hintRaw);
const hintWords = wordsOf(hint);

// 1 for the same text; less the more the value holds beyond the hint; some for shared words.
function similarity(value) {
  const v = norm(value);
  if (!v || !hint) return 0;
  if (v === hint) return 1;
  if (v.includes(hint)) return 0.6 + 0.35 * (hint.length / v.length);
  if (v.length >= 3 && hint.includes(v)) return 0.2 + 0.4 * (v.length / hint.length);
  if (hintWords.length === 0) return 0;
  const valueWords = new Set(wordsOf(v));
  const shared = hintWords.filter((w) => valueWords.has(w)).length;
  return 0.5 * (shared / hintWords.length);
}

function visible(el) {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

const found = new Map();
function offer(el, score, stage) {
  if (score <= 0) return;
  const known = found.get(el);
  if (!known || score > known.score) found.set(el, { el, score: Math.min(1, score), stage });
}

let bySelector = [];
try { bySelector = Array.from(document.querySelectorAll(hintRaw)); } catch (e) { bySelector = []; }
bySelector = bySelector.filter((el) => document.body && document.body.contains(el));
bySelector.forEach((el, i) => {
  const base = bySelector.length === 1 ? 1 : Math.max(0.8, 0.95 - 0.01 * i);
  offer(el, visible(el) ? base : base - 0.1, 1);
});

if (document.body) {
  for (const el of document.body.querySelectorAll(ATTRIBUTES.map((a) => '[' + a + ']').join(','))) {
    let best = 0;
    for (const a of ATTRIBUTES) if (el.hasAttribute(a)) best = Math.max(best, similarity(el.getAttribute(a)));
    if (best >= 0.25) offer(el, 0.9 * best * (visible(el) ? 1 : 0.8), 2);
  }
  for (const el of document.body.querySelectorAll(TEXT_TAGS)) {
    if (!visible(el)) continue;
    const text = el.innerText || '';
    if (text.length > LONGEST_TEXT) continue;
    const s = similarity(text);
    if (s >= 0.25) offer(el, 0.8 * s + (ACTIONABLE.has(el.tagName.toLowerCase()) ? 0.05 : 0), 3);
  }
}

const textOf = (el) => norm(el.innerText || el.value || el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('title') || '');
const depth = (el) => { let d = 0; for (let n = el; n; n = n.parentElement) d++; return d; };
// Equal scores: the earlier stage, then the deeper element (the text itself rather than its wrapper).
const ranked = Array.from(found.values()).sort((a, b) => b.score - a.score || a.stage - b.stage || depth(b.el) - depth(a.el));
const chosen = [];
for (const c of ranked) {
  if (chosen.length >= args.limit) break;
  // A label inside its button says the same thing: keep the better-ranked one only.
  const nested = chosen.some((k) => (k.el.contains(c.el) || c.el.contains(k.el)) && textOf(k.el) === textOf(c.el) && textOf(c.el) !== '');
  if (!nested) chosen.push(c);
}

const quote = (v) => '"' + v.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ') + '"';
const idSelector = (el) => (el.id ? '#' + CSS.escape(el.id) : '');

function selectorFor(el) {
  const tag = el.tagName.toLowerCase();
  if (el.id && only(idSelector(el), el)) return idSelector(el);
  for (const a of ['data-testid', 'data-test-id', 'name', 'aria-label', 'placeholder', 'title', 'alt']) {
    const v = el.getAttribute(a);
    if (v && only(CSS.escape(tag) + '[' + a + '=' + quote(v) + ']', el)) return CSS.escape(tag) + '[' + a + '=' + quote(v) + ']';
  }
  return cssPath(el);
}

function xpathFor(el) {
  const idStep = (node) => (node.id && !node.id.includes('"') && only(idSelector(node), node) ? '//*[@id="' + node.id + '"]' : '');
  const steps = [];
  for (let node = el; node; node = node.parentElement) {
    const anchor = idStep(node);
    if (anchor) return [anchor].concat(steps).join('/');
    const html = node.namespaceURI === 'http://www.w3.org/1999/xhtml';
    const name = html ? node.localName : '*[local-name()="' + node.localName + '"]';
    const parent = node.parentElement;
    if (!parent) { steps.unshift(name); break; }
    const same = Array.from(parent.children).filter((c) => c.localName === node.localName && c.namespaceURI === node.namespaceURI);
    steps.unshift(name + '[' + (same.indexOf(node) + 1) + ']');
  }
  return '/' + steps.join('/');
}

const candidates = chosen.map((c) => ({
  selector: selectorFor(c.el),
  xpath: xpathFor(c.el),
  confidence: Math.round(Math.max(0, Math.min(1, c.score)) * 1000) / 1000,
  tag: c.el.tagName.toLowerCase(),
  text: (c.el.innerText || c.el.value || c.el.getAttribute('aria-label') || c.el.getAttribute('alt') || c.el.getAttribute('title') || c.el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 120),
}));

if (args.highlight && chosen.length > 0) {
  const top = chosen[0].el;
  top.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  for (const old of document.querySelectorAll('[data-taskloom-highlight]')) old.remove();
  const r = top.getBoundingClientRect();
  const box = document.createElement('div');
  box.setAttribute('data-taskloom-highlight', '');
  Object.assign(box.style, {
    position: 'fixed', left: (r.left - 4) + 'px', top: (r.top - 4) + 'px', width: (r.width + 8) + 'px', height: (r.height + 8) + 'px',
    border: '3px solid #e5383b', background: 'rgba(229, 56, 59, 0.12)', boxSizing: 'border-box',
    zIndex: '2147483647', pointerEvents: 'none', margin: '0', padding: '0',
  });
  document.documentElement.appendChild(box);
  // Left for a person watching over VNC, then removed so it never disturbs the page.
  setTimeout(() => box.remove(), args.keepMs);
  await new Promise((resolve) => { requestAnimationFrame(() => resolve()); setTimeout(resolve, 100); });
}
return { candidates };
`;
