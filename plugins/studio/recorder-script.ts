/** The binding the recorder script calls with each thing the person did (a JSON string). */
export const RECORD_BINDING = '__taskloomRecord';

/**
 * In-page recorder (needs STUDIO_SCRIPT first), installed on every document of a recording session. It reports,
 * through the binding, in the order they happened:
 *   click   on anything but a text field, a select, a check box or a radio button (the control, not the icon inside it)
 *   check   a check box or radio button clicked, with whether it is checked now
 *   dblclick the second click of a double click (the recording folds the two clicks before it into one action)
 *   right_click a context menu asked for on an element
 *   type    what was typed into a text field, once the field is left, changed, or a key below is pressed in it;
 *           a password field reports that it was typed into, never what
 *   select  the option chosen in a select (CSS selectors only: it is replayed through document.querySelector)
 *   press   Enter, Tab, Escape and the arrow keys
 *   scroll  the window scrolled by the wheel (its vertical distance, once the wheel rests)
 * Each carries the element's ranked selectors, its fingerprint (FINGERPRINT_SCRIPT, for healing), and `appeared` when the element was not shown when the last step
 * happened (or when the page finished loading, before the first; for typing, when the field got focus): it appeared since (after a click, a request, a
 * timer), so a replay must wait for it. The check compares with the set of elements shown then (a step happens at
 * a person's pace: one pass over the page's elements per step is cheap).
 */
export const RECORDER_SCRIPT = String.raw`(() => {
if (window.__taskloomRecorder || !window.__taskloomStudio) return;
window.__taskloomRecorder = true;
const S = window.__taskloomStudio;
const post = (event) => { try { window.${RECORD_BINDING}(JSON.stringify(event)); } catch (e) { /* the session is gone */ } };
const isShown = (el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
let shown = null; // the elements shown at the last step (null: the page is still loading)
const settle = () => { shown = new WeakSet(); for (const el of document.querySelectorAll('*')) if (isShown(el)) shown.add(el); };
if (document.readyState === 'complete') settle(); else window.addEventListener('load', settle, { once: true });
const appeared = (el) => !shown || !shown.has(el);
let scrolled = null; // a wheel scroll not yet reported: { from, timer }
const flushScroll = () => {
  if (!scrolled) return;
  clearTimeout(scrolled.timer);
  const by = Math.round(window.scrollY - scrolled.from);
  scrolled = null;
  if (by !== 0) post({ kind: 'scroll', by });
};
// Each step, in order: a pending scroll first; then the elements shown now are those the next step compares with.
// Typing is reported once the field is left, but it happened from when the field got focus: the elements shown
// were taken then (a suggestion list that appears while typing is one to wait for).
// An element's event carries its fingerprint (healing), taken now, before the step's effect.
const send = (event, typing) => {
  flushScroll();
  if (event.selectors && event.selectors.length && S.fingerprint) event.fingerprint = S.fingerprint(event.selectors.map((c) => c.selector));
  post(event);
  if (!typing) settle();
};
const focusedAppeared = new WeakMap(); // field -> whether it had appeared when it was focused (typing is reported later)
const TEXT_TYPES = ['text', 'email', 'search', 'tel', 'url', 'password', 'number', ''];
const isText = (el) => el && ((el.tagName === 'INPUT' && TEXT_TYPES.includes((el.getAttribute('type') || '').toLowerCase())) || el.tagName === 'TEXTAREA' || el.isContentEditable);
const KEYS = ['Enter', 'Tab', 'Escape', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
const typed = new WeakMap(); // field -> the value already reported (or there at focus)
const flush = (el) => {
  if (!isText(el)) return;
  const before = typed.has(el) ? typed.get(el) : '';
  const now = el.isContentEditable ? el.innerText : el.value;
  if (now === before) return;
  typed.set(el, now);
  const password = el.tagName === 'INPUT' && el.type === 'password';
  // A type action appends to what the field holds: report what was added when that is all that changed.
  const appended = now.startsWith(before) ? now.slice(before.length) : now;
  send(Object.assign({ kind: 'type', selectors: S.candidates(el, false), password, replaced: !now.startsWith(before), appeared: focusedAppeared.get(el) === true }, password ? {} : { value: appended }), true);
  focusedAppeared.set(el, false);
};
document.addEventListener('focusin', (e) => {
  const el = e.target;
  if (!isText(el)) return;
  if (!typed.has(el)) typed.set(el, el.isContentEditable ? el.innerText : el.value);
  if (!focusedAppeared.get(el)) focusedAppeared.set(el, appeared(el));
  settle();
}, true);
document.addEventListener('focusout', (e) => flush(e.target), true);
document.addEventListener('change', (e) => {
  const el = e.target;
  if (el.tagName === 'SELECT') send({ kind: 'select', selectors: S.candidates(el, true), value: el.value, appeared: appeared(el) });
  else flush(el);
}, true);
document.addEventListener('keydown', (e) => {
  if (!KEYS.includes(e.key)) return;
  const el = e.target;
  flush(el);
  const on = el && el !== document.body && el.tagName;
  send({ kind: 'press', key: e.key, selectors: on ? S.candidates(el, false) : [], appeared: on ? appeared(el) : false });
}, true);
const isToggle = (el) => el && el.tagName === 'INPUT' && ['checkbox', 'radio'].includes((el.getAttribute('type') || '').toLowerCase());
const target = (e) => {
  const el = S.at(e.clientX, e.clientY) || e.target;
  return !el || isText(el) || el.tagName === 'SELECT' || el.tagName === 'OPTION' || el === document.documentElement || el === document.body ? null : el;
};
document.addEventListener('click', (e) => {
  // A check box's click event comes with its new state already set (and a label's click reaches its box as one).
  if (isToggle(e.target)) return send({ kind: 'check', checked: e.target.checked, selectors: S.candidates(e.target, false), appeared: appeared(e.target) });
  const el = target(e);
  if (!el || isToggle(el) || (el.tagName === 'LABEL' && isToggle(el.control))) return;
  send({ kind: 'click', selectors: S.candidates(el, false), appeared: appeared(el) });
}, true);
document.addEventListener('dblclick', (e) => {
  const el = target(e);
  if (el && !isToggle(el)) send({ kind: 'dblclick', selectors: S.candidates(el, false) });
}, true);
document.addEventListener('contextmenu', (e) => {
  const el = target(e);
  if (el) send({ kind: 'right_click', selectors: S.candidates(el, false), appeared: appeared(el) });
}, true);
// The wheel event comes before the scroll it causes: where the window stood is read then.
const wait = () => { clearTimeout(scrolled.timer); scrolled.timer = setTimeout(flushScroll, 500); };
window.addEventListener('wheel', () => { if (!scrolled) scrolled = { from: window.scrollY, timer: 0 }; wait(); }, { capture: true, passive: true });
document.addEventListener('scroll', (e) => {
  if (e.target === document && scrolled) wait(); // the window, moved by the person's wheel: report once it rests
}, true);
})()`;
