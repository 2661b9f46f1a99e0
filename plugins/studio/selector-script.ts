/**
 * In-page helpers of the studio, installed once per document as `window.__taskloomStudio` (plain JavaScript in a
 * string, compiled by the page). `candidates(el)` ranks the selectors that name `el`, best first, each checked to
 * match exactly `el` and nothing else, with a confidence in the inspector's scale ([0, 1]; stages ranked as the
 * inspector ranks its own: a selector made for the element beats one found by its text):
 *   test id   [data-testid="..."] (data-test-id, data-test, data-qa)     0.98
 *   id        #id (not one that looks generated: long runs of digits)      0.95
 *   name      tag[name="..."] (form fields)                                0.9
 *   role      role=button[name="..."] (role and accessible name)           0.88
 *   text      text=... (links, buttons, labels: their visible text)        0.8
 *   CSS path  a short path of tags and :nth-of-type, from a unique ancestor 0.6
 * `cssOnly` keeps the CSS ones (a select is set through document.querySelector).
 */
import { UNIQUE_CSS_SOURCE } from '../../layers/page-scripts/unique-css.js';

export const STUDIO_SCRIPT = String.raw`(() => {
if (window.__taskloomStudio) return;
const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa'];
const quote = (v) => '"' + String(v).replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ') + '"';
const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
${UNIQUE_CSS_SOURCE}
const IMPLICIT = { button: 'button', a: 'link', select: 'combobox', textarea: 'textbox', h1: 'heading', h2: 'heading', h3: 'heading', img: 'img', li: 'listitem' };
function roleOf(el) {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit.split(' ')[0];
  const tag = el.tagName.toLowerCase();
  if (tag === 'a' && !el.hasAttribute('href')) return '';
  if (tag === 'input') {
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    if (['button', 'submit', 'reset'].includes(type)) return 'button';
    if (type === 'checkbox' || type === 'radio') return type;
    if (['text', 'email', 'search', 'tel', 'url', ''].includes(type)) return 'textbox';
    return '';
  }
  return IMPLICIT[tag] || '';
}
function nameOf(el) {
  const label = el.getAttribute('aria-label');
  if (label) return norm(label);
  const by = el.getAttribute('aria-labelledby');
  if (by) return norm(by.split(' ').map((id) => (document.getElementById(id) || {}).textContent || '').join(' '));
  if (el.labels && el.labels.length) return norm(el.labels[0].textContent);
  const tag = el.tagName.toLowerCase();
  if (tag === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return norm(el.value);
  if (tag === 'img') return norm(el.getAttribute('alt'));
  if (['input', 'textarea'].includes(tag)) return norm(el.getAttribute('placeholder') || el.getAttribute('title'));
  return norm(el.innerText || el.textContent).slice(0, 80);
}
function candidates(el, cssOnly) {
  const out = [];
  const offer = (selector, kind, confidence) => { if (!out.some((c) => c.selector === selector)) out.push({ selector, kind, confidence }); };
  const tag = CSS.escape(el.tagName.toLowerCase());
  for (const a of TEST_IDS) {
    const v = el.getAttribute(a);
    if (v && only('[' + a + '=' + quote(v) + ']', el)) { offer('[' + a + '=' + quote(v) + ']', 'test id', 0.98); break; }
  }
  if (el.id && !/\d{4,}/.test(el.id) && only('#' + CSS.escape(el.id), el)) offer('#' + CSS.escape(el.id), 'id', 0.95);
  const name = el.getAttribute('name');
  if (name && only(tag + '[name=' + quote(name) + ']', el)) offer(tag + '[name=' + quote(name) + ']', 'name', 0.9);
  if (!cssOnly) {
    const role = roleOf(el);
    const accessible = role ? nameOf(el) : '';
    if (role && accessible && accessible.length <= 60) {
      // The engines match the name as a case-insensitive part of an element's: count what else would match.
      const wanted = accessible.toLowerCase();
      const same = Array.from(document.querySelectorAll('*')).filter((o) => roleOf(o) === role && nameOf(o).toLowerCase().includes(wanted));
      if (same.length === 1 && same[0] === el) offer('role=' + role + '[name=' + quote(accessible) + ']', 'role', 0.88);
    }
    const text = norm(el.innerText);
    if (['a', 'button', 'label', 'summary'].includes(el.tagName.toLowerCase()) && text && text.length <= 60 && !text.includes('"')) {
      const lower = text.toLowerCase();
      // Innermost elements holding the text: the text selector's matches.
      const holders = Array.from(document.body.querySelectorAll('*')).filter((o) => norm(o.innerText).toLowerCase().includes(lower)
        && !Array.from(o.children).some((c) => norm(c.innerText).toLowerCase().includes(lower)));
      if (holders.length === 1 && (holders[0] === el || el.contains(holders[0]))) offer('text=' + text, 'text', 0.8);
    }
  }
  offer(cssPath(el), 'CSS path', 0.6);
  return out;
}
function boxOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}
function describe(el) {
  return { tag: el.tagName.toLowerCase(), text: norm(el.innerText || el.value || el.getAttribute('aria-label') || '').slice(0, 80) };
}
function at(x, y) {
  let el = document.elementFromPoint(x, y);
  // A label's text or an icon inside a button: the control is what a task acts on.
  const control = el && el.closest && el.closest('a, button, select, input, textarea, label, summary, [role=button], [role=link]');
  return control || el;
}
window.__taskloomStudio = {
  candidates, boxOf, describe, at,
  hover(x, y) { const el = at(x, y); return el ? boxOf(el) : null; },
  pick(x, y) {
    const el = at(x, y);
    return el ? Object.assign({ box: boxOf(el), candidates: candidates(el, false) }, describe(el)) : null;
  },
  selectAt(x, y) {
    const el = at(x, y);
    if (!el || el.tagName !== 'SELECT') return null;
    return { box: boxOf(el), options: Array.from(el.options).map((o) => ({ value: o.value, label: norm(o.label || o.text) })), value: el.value };
  },
  choose(x, y, value) {
    const el = at(x, y);
    if (!el || el.tagName !== 'SELECT') return false;
    el.focus();
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  },
};
})()`;
