/**
 * Healing's code in the page (plain JavaScript in strings, compiled by the page, so no transpiler helper leaks in),
 * each the body of an async function of `args`. Shared by the runs (fingerprint after an action, repair before
 * failing), the studio and the task generator. Each is a `String.raw` template: a plain one drops its regular
 * expressions' backslashes (`\d` becomes `d`) and the page still runs it, wrongly (test/layers/page-script-escapes).
 *
 * FINGERPRINT_BODY `{ selector }` → the fingerprint of the selector's first match, or null: tag, role, accessible
 *   name, text, stable attributes (id, name, test ids, href, placeholder, type, title, alt, aria-*), classes, the
 *   position among same-tag siblings, the ancestors' tags (nearest first) and up to four neighbours' texts (what
 *   sits around it in its card, row or form: what tells two "Add to cart" buttons apart).
 * MATCH_BODY `{ fingerprint, limit }` → `{ candidates }`: every visible element of the page scored against the
 *   fingerprint ([0, 1], a weighted mean over the features the fingerprint has), best first, each with a selector
 *   that matches exactly it, whether it is empty or generic (why), and whether it holds or sits in the best one (a
 *   wrapper is the same target, not a rival). Deterministic: the same page gives the same answer.
 */
import { UNIQUE_CSS_SOURCE } from '../page-scripts/unique-css.js';

const COMMON = String.raw`
const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
const KEPT_ATTRIBUTES = ['id', 'name', 'href', 'placeholder', 'type', 'title', 'alt', 'for', 'value'];
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'BR', 'HR']);
const LANDMARKS = { footer: 'contentinfo', header: 'banner', nav: 'navigation', aside: 'complementary', main: 'main', form: 'form' };
const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
const cut = (s, n) => { const t = norm(s); return t.length > n ? t.slice(0, n) : t; };
const quote = (v) => '"' + String(v).replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ') + '"';
const IMPLICIT = { button: 'button', a: 'link', select: 'combobox', textarea: 'textbox', h1: 'heading', h2: 'heading',
  h3: 'heading', h4: 'heading', img: 'img', li: 'listitem', nav: 'navigation', footer: 'contentinfo', form: 'form' };
function roleOf(el) {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit.split(' ')[0];
  const tag = el.tagName.toLowerCase();
  if (tag === 'a' && !el.hasAttribute('href')) return '';
  if (tag === 'input') {
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    if (['button', 'submit', 'reset'].includes(type)) return 'button';
    if (type === 'checkbox' || type === 'radio') return type;
    return 'textbox';
  }
  return IMPLICIT[tag] || '';
}
function textOf(el) { return cut(el.innerText != null ? el.innerText : el.textContent, 200); }
function nameOf(el) {
  const label = el.getAttribute('aria-label');
  if (label) return cut(label, 120);
  const by = el.getAttribute('aria-labelledby');
  if (by) return cut(by.split(' ').map((id) => (document.getElementById(id) || {}).textContent || '').join(' '), 120);
  if (el.labels && el.labels.length) return cut(el.labels[0].textContent, 120);
  const tag = el.tagName.toLowerCase();
  if (tag === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return cut(el.value, 120);
  if (tag === 'img') return cut(el.getAttribute('alt'), 120);
  if (['input', 'textarea', 'select'].includes(tag)) return cut(el.getAttribute('placeholder') || el.getAttribute('title'), 120);
  return cut(el.innerText || el.textContent, 120);
}
function visible(el) {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}
${UNIQUE_CSS_SOURCE}
function fingerprintOf(el) {
  const attributes = {};
  for (const a of KEPT_ATTRIBUTES) { const v = el.getAttribute(a); if (v != null && v !== '') attributes[a] = cut(v, 300); }
  for (const a of TEST_IDS) { const v = el.getAttribute(a); if (v) { attributes.testid = cut(v, 200); break; } }
  for (const a of el.getAttributeNames()) {
    if (a.startsWith('aria-') && !['aria-hidden', 'aria-describedby', 'aria-labelledby', 'aria-controls', 'aria-owns'].includes(a)) {
      const v = el.getAttribute(a);
      if (v) attributes[a] = cut(v, 200);
    }
  }
  const parent = el.parentElement;
  const same = parent ? Array.from(parent.children).filter((c) => c.tagName === el.tagName) : [el];
  const ancestors = [];
  const landmarks = [];
  for (let node = el.parentElement; node && node !== document.documentElement; node = node.parentElement) {
    const tag = node.tagName.toLowerCase();
    if (ancestors.length < 6) ancestors.push(tag);
    const landmark = node.getAttribute('role') || LANDMARKS[tag];
    if (landmark && ['contentinfo', 'banner', 'navigation', 'complementary', 'main', 'form', 'dialog'].includes(landmark) && !landmarks.includes(landmark)) landmarks.push(landmark);
  }
  return {
    tag: el.tagName.toLowerCase(), role: roleOf(el), name: nameOf(el), text: textOf(el), attributes,
    classes: Array.from(el.classList).slice(0, 12).map((c) => cut(c, 80)),
    index: same.indexOf(el) + 1, siblings: same.length, ancestors, landmarks, neighbours: neighboursOf(el),
  };
}
// Texts around the element: walking up, the first ancestor that holds other text gives its other children's texts.
function neighboursOf(el) {
  const own = norm(el.innerText || el.textContent);
  let branch = el;
  for (let node = el.parentElement, level = 0; node && node !== document.body && level < 4; node = node.parentElement, level++) {
    const texts = [];
    for (const child of node.children) {
      if (child === branch || SKIPPED.has(child.tagName)) continue;
      const t = norm(child.innerText != null ? child.innerText : child.textContent);
      // Short texts only: a whole section's text says nothing about where in it the element sits.
      if (t && t !== own && t.length <= 60 && texts.length < 4) texts.push(t);
    }
    if (texts.length) return texts;
    branch = node;
  }
  return [];
}
`;

/** Finds elements for the selector forms the runs accept: CSS, XPath (`//`, `(//`, `xpath=`) and `text=`. */
const RESOLVE = String.raw`
function resolve(selector) {
  if (selector.startsWith('xpath=') || selector.startsWith('//') || selector.startsWith('(//')) {
    const found = document.evaluate(selector.replace(/^xpath=/, ''), document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    const out = [];
    for (let i = 0; i < found.snapshotLength; i++) if (found.snapshotItem(i) instanceof Element) out.push(found.snapshotItem(i));
    return out;
  }
  if (selector.startsWith('text=')) {
    const raw = selector.slice(5);
    const quoted = raw.length > 1 && (raw[0] === '"' || raw[0] === "'") && raw.endsWith(raw[0]);
    const want = quoted ? norm(raw.slice(1, -1)) : norm(raw).toLowerCase();
    const hit = (el) => !SKIPPED.has(el.tagName) && (quoted ? norm(el.textContent) === want : norm(el.textContent).toLowerCase().includes(want));
    const hits = Array.from(document.querySelectorAll('body *')).filter(hit);
    return hits.filter((el) => !Array.from(el.children).some(hit));
  }
  return Array.from(document.querySelectorAll(selector));
}
`;

/** args `{ selector }` → a fingerprint of its first match, null when nothing matches (or the selector is engine-only). */
export const FINGERPRINT_BODY = String.raw`${COMMON}${RESOLVE}
let el;
try { el = resolve(args.selector)[0]; } catch (e) { return null; }
return el ? fingerprintOf(el) : null;`;

/** args `{ selector }` → how many elements match, -1 when the page cannot resolve it (an engine-only form). */
export const COUNT_BODY = String.raw`${COMMON}${RESOLVE}
try { return resolve(args.selector).length; } catch (e) { return -1; }`;

/** args `{ fingerprint, limit }` → `{ candidates }`, best first (see the file's comment). */
export const MATCH_BODY = String.raw`${COMMON}
const f = args.fingerprint;
const words = (s) => norm(s).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
function textSim(a, b) {
  const x = norm(a).toLowerCase(), y = norm(b).toLowerCase();
  if (!x && !y) return 1;
  if (!x || !y) return 0;
  if (x === y) return 1;
  const wx = new Set(words(x)), wy = new Set(words(y));
  let shared = 0;
  for (const w of wx) if (wy.has(w)) shared++;
  const jaccard = shared / (wx.size + wy.size - shared || 1);
  const contained = x.includes(y) || y.includes(x) ? 0.7 * Math.min(x.length, y.length) / Math.max(x.length, y.length) : 0;
  return Math.max(jaccard, contained);
}
function setSim(a, b) {
  if (!a.length && !b.length) return 1;
  const sb = new Set(b);
  const shared = a.filter((v) => sb.has(v)).length;
  return shared / (a.length + b.length - shared || 1);
}
// The longest common subsequence of two short lists: a wrapper added or removed keeps most of the ancestor path.
function lcs(a, b) {
  const row = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}
const CLICKABLE = new Set(['a', 'button', 'summary', 'label']);
function score(c) {
  let sum = 0, total = 0;
  const add = (w, s) => { sum += w * s; total += w; };
  const tagSim = c.tag === f.tag ? 1 : CLICKABLE.has(c.tag) && CLICKABLE.has(f.tag) ? 0.5 : 0;
  add(2, tagSim);
  if (f.role || c.role) add(1, f.role === c.role ? 1 : 0);
  // The accessible name is often the text itself: then it is one piece of evidence, not two.
  if (f.name === f.text) { if (f.text || c.text) add(4, Math.max(textSim(f.text, c.text), textSim(f.name, c.name))); }
  else {
    if (f.name || c.name) add(3, textSim(f.name, c.name));
    if (f.text || c.text) add(2, textSim(f.text, c.text));
  }
  for (const [key, value] of Object.entries(f.attributes)) {
    // A test id and a link's destination change least when a site is rebuilt: they weigh most.
    const w = key === 'testid' || key === 'href' ? 2.5 : ['id', 'name', 'placeholder'].includes(key) ? 1.5 : 1;
    const other = c.attributes[key];
    add(w, other === undefined ? 0 : other === value ? 1 : 0.8 * textSim(value.replace(/[-_]/g, ' '), other.replace(/[-_]/g, ' ')));
  }
  if (f.classes.length) add(1, setSim(f.classes, c.classes));
  add(0.5, f.index === c.index && f.siblings === c.siblings ? 1 : f.index === c.index ? 0.5 : 0);
  if (f.ancestors.length || c.ancestors.length) add(1, 2 * lcs(f.ancestors, c.ancestors) / (f.ancestors.length + c.ancestors.length));
  if ((f.landmarks || []).length) add(1, setSim(f.landmarks, c.landmarks));
  if (f.neighbours.length) add(2, textSim(f.neighbours.join(' '), c.neighbours.join(' ')));
  const result = total ? sum / total : 0;
  // Neither the tag nor the role of the target: a different kind of element, whatever else it shares.
  return tagSim === 0 && f.role !== c.role ? result * 0.6 : result;
}
const pageArea = Math.max(1, document.documentElement.scrollWidth * document.documentElement.scrollHeight);
const FORM_TAGS = new Set(['input', 'select', 'textarea', 'img', 'video', 'canvas', 'iframe']);
function genericOf(el, c) {
  if (el === document.body || el === document.documentElement) return 'the whole document';
  const r = el.getBoundingClientRect();
  if (r.width * r.height >= 0.8 * pageArea && el.querySelectorAll('*').length > 20) return 'a container of the whole page';
  if (!c.text && !c.name && !FORM_TAGS.has(c.tag) && !c.attributes.value) return 'an empty element';
  if (c.landmarks.includes('contentinfo') && !(f.landmarks || []).includes('contentinfo')) return 'in the footer, which the target was not';
  return undefined;
}
// The steadiest CSS selector that matches exactly el (CSS: both engines and every selector field accept it).
function selectorOf(el) {
  const tag = CSS.escape(el.tagName.toLowerCase());
  for (const a of TEST_IDS) {
    const v = el.getAttribute(a);
    if (v && only('[' + a + '=' + quote(v) + ']', el)) return '[' + a + '=' + quote(v) + ']';
  }
  if (el.id && !/\d{4,}/.test(el.id) && only('#' + CSS.escape(el.id), el)) return '#' + CSS.escape(el.id);
  for (const a of ['name', 'aria-label', 'placeholder', 'href']) {
    const v = el.getAttribute(a);
    if (v && v.length <= 200 && only(tag + '[' + a + '=' + quote(v) + ']', el)) return tag + '[' + a + '=' + quote(v) + ']';
  }
  return cssPath(el);
}
const scored = [];
for (const el of document.body.querySelectorAll('*')) {
  if (SKIPPED.has(el.tagName) || !visible(el)) continue;
  const c = fingerprintOf(el);
  scored.push({ el, c, score: score(c) });
}
scored.sort((a, b) => b.score - a.score);
const top = scored[0];
const limit = Math.max(1, Math.min(20, args.limit || 5));
const candidates = scored.slice(0, limit).map(({ el, c, score: s }) => ({
  selector: selectorOf(el),
  score: Math.round(s * 1000) / 1000,
  tag: c.tag,
  text: cut(c.name || c.text, 80),
  generic: genericOf(el, c),
  sameTarget: el !== top.el && (el.contains(top.el) || top.el.contains(el)) && textSim(c.text, top.c.text) >= 0.9,
  fingerprint: c,
}));
return { candidates, scanned: scored.length };`;
