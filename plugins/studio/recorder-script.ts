/** The binding the recorder script calls with each thing the person did (a JSON string). */
export const RECORD_BINDING = '__taskloomRecord';

/**
 * In-page recorder (needs STUDIO_SCRIPT first), installed on every document of a recording session. It reports,
 * through the binding, in the order they happened:
 *   click   on anything but a text field or a select (the control, not the icon inside it)
 *   type    what was typed into a text field, once the field is left, changed, or a key below is pressed in it;
 *           a password field reports that it was typed into, never what
 *   select  the option chosen in a select (CSS selectors only: it is replayed through document.querySelector)
 *   press   Enter, Tab, Escape and the arrow keys
 * Each carries the element's ranked selectors.
 */
export const RECORDER_SCRIPT = String.raw`(() => {
if (window.__taskloomRecorder || !window.__taskloomStudio) return;
window.__taskloomRecorder = true;
const S = window.__taskloomStudio;
const send = (event) => { try { window.${RECORD_BINDING}(JSON.stringify(event)); } catch (e) { /* the session is gone */ } };
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
  send(Object.assign({ kind: 'type', selectors: S.candidates(el, false), password, replaced: !now.startsWith(before) }, password ? {} : { value: appended }));
};
document.addEventListener('focusin', (e) => { const el = e.target; if (isText(el) && !typed.has(el)) typed.set(el, el.isContentEditable ? el.innerText : el.value); }, true);
document.addEventListener('focusout', (e) => flush(e.target), true);
document.addEventListener('change', (e) => {
  const el = e.target;
  if (el.tagName === 'SELECT') send({ kind: 'select', selectors: S.candidates(el, true), value: el.value });
  else flush(el);
}, true);
document.addEventListener('keydown', (e) => {
  if (!KEYS.includes(e.key)) return;
  const el = e.target;
  flush(el);
  send({ kind: 'press', key: e.key, selectors: el && el !== document.body && el.tagName ? S.candidates(el, false) : [] });
}, true);
document.addEventListener('click', (e) => {
  const el = S.at(e.clientX, e.clientY) || e.target;
  if (!el || isText(el) || el.tagName === 'SELECT' || el.tagName === 'OPTION' || el === document.documentElement || el === document.body) return;
  send({ kind: 'click', selectors: S.candidates(el, false) });
}, true);
})()`;
