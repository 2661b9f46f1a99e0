import { UNIQUE_CSS_SOURCE } from '../../layers/page-scripts/unique-css.js';

/**
 * In-page function (a source string, called with `{ x, y, selector, mode, rows }`) behind a field mapping's picking
 * (README "Field mapping"). The picked element is the one at (x, y) as the studio's pick finds it, or the first
 * match of `selector`. Answers `{ problem }` when there is no answer, else:
 * - `mode: 'row'`: `{ list, count, box }`, a list selector matching the picked row and its like siblings. The row
 *   is the nearest element (the picked one or an ancestor; a table cell's row) with siblings of its tag; the
 *   selector is its tag and the stable classes its siblings share, prefixed by the parent's path when bare it would
 *   also match elsewhere; it is checked to match the row and at least one more.
 * - `mode: 'field'`: `{ selector, name, attribute, type, text, value, rowsWithMatch, box }`, a selector relative to
 *   the enclosing row of `rows` (empty: the row itself), checked to match exactly the element inside that row;
 *   a suggested name (its first stable class, else its tag) and attribute (href of a link, src of an image,
 *   datetime of a time), the element's text and the value read; `rowsWithMatch`: the rows where it finds something.
 */
export const ROW_PICK_FUNCTION = String.raw`(args) => {
${UNIQUE_CSS_SOURCE}
const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
const S = window.__taskloomStudio;
let el = null;
try {
  el = args.selector ? document.querySelector(args.selector) : (S ? S.at(args.x, args.y) : document.elementFromPoint(args.x, args.y));
} catch (e) { return { problem: 'the selector "' + args.selector + '" is not valid CSS' }; }
if (!el || el === document.documentElement || el === document.body) return { problem: 'no element there to pick' };
const boxOf = (node) => { const r = node.getBoundingClientRect(); return { x: r.left, y: r.top, width: r.width, height: r.height }; };
// Classes that name what a thing is, not its state or position: no digits, no state words.
const stable = (node) => Array.from(node.classList).filter((c) => !/\d/.test(c) && !/^(active|selected|current|hover|focus|open|is-|has-)/.test(c));
const all = (selector, scope) => { try { return Array.from((scope || document).querySelectorAll(selector)); } catch (e) { return []; } };
const tagOf = (node) => CSS.escape(node.tagName.toLowerCase());

if (args.mode === 'row') {
  let row = el.closest('td, th') ? el.closest('tr') || el : el;
  const alike = (node) => node.parentElement ? Array.from(node.parentElement.children).filter((c) => c.tagName === node.tagName) : [node];
  while (row && row.parentElement && row !== document.body && alike(row).length < 2) row = row.parentElement;
  if (!row || row === document.body || alike(row).length < 2) return { problem: 'nothing repeats around the picked element: pick one of the rows' };
  const siblings = alike(row);
  const shared = stable(row).filter((c) => siblings.every((s) => s.classList.contains(c)));
  const bare = tagOf(row) + shared.map((c) => '.' + CSS.escape(c)).join('');
  const parent = cssPath(row.parentElement);
  const offers = [bare, parent + ' > ' + bare, parent + ' > ' + tagOf(row)];
  for (const list of offers) {
    const found = all(list);
    // Bare, it must name just these siblings (not like elements elsewhere on the page).
    if (found.length >= 2 && found.includes(row) && (list !== bare || found.every((f) => f.parentElement === row.parentElement))) {
      return { list, count: found.length, box: boxOf(row) };
    }
  }
  return { problem: 'no selector names the picked row and its siblings' };
}

let row = null;
try { row = el.closest(args.rows); } catch (e) { return { problem: 'the rows selector "' + args.rows + '" is not valid CSS' }; }
if (!row) return { problem: 'the picked element is in none of the rows "' + args.rows + '": pick inside a row' };
const rows = all(args.rows);
const onlyIn = (selector) => { const found = all(selector, row); return found.length === 1 && found[0] === el; };
let selector = null;
if (el !== row) {
  const tag = tagOf(el);
  const offers = stable(el).map((c) => tag + '.' + CSS.escape(c)).concat([tag]);
  selector = offers.find(onlyIn) || null;
  if (!selector) {
    // A short path from the row: each step its tag (and first stable class), :nth-of-type where needed.
    const parts = [];
    for (let node = el; node && node !== row; node = node.parentElement) {
      let part = tagOf(node);
      const cls = stable(node)[0];
      if (cls) part += '.' + CSS.escape(cls);
      const same = Array.from(node.parentElement.children).filter((c) => c.tagName === node.tagName);
      if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
      parts.unshift(part);
      if (onlyIn(parts.join(' > '))) break;
    }
    selector = parts.join(' > ');
    if (!onlyIn(selector)) return { problem: 'no selector names the picked element inside its row' };
  }
}
const tag = el.tagName.toLowerCase();
const attribute = tag === 'a' && el.hasAttribute('href') ? 'href' : tag === 'img' && el.hasAttribute('src') ? 'src' : tag === 'time' && el.hasAttribute('datetime') ? 'datetime' : undefined;
const type = attribute === 'datetime' ? 'date' : attribute ? 'url' : undefined;
const text = norm(el.textContent);
return {
  selector: selector || '', name: (stable(el)[0] || tag).replace(/[^A-Za-z0-9_]+/g, '_'), attribute, type, text,
  value: attribute ? norm(el.getAttribute(attribute)) : text,
  rowsWithMatch: rows.filter((r) => !selector || r.querySelector(selector)).length, box: boxOf(el),
};
}`;
