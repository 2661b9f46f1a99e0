/**
 * In-page JavaScript (a source string, spliced into the page scripts of the studio, healing and the inspector): `only(selector,
 * el)`, whether a CSS selector matches exactly `el`; `cssPath(el)`, a short CSS path that does, from the nearest
 * ancestor with a unique id (tags and :nth-of-type).
 */
export const UNIQUE_CSS_SOURCE = String.raw`
function only(selector, el) {
  try { const all = document.querySelectorAll(selector); return all.length === 1 && all[0] === el; } catch (e) { return false; }
}
function cssPath(el) {
  const parts = [];
  for (let node = el; node && node !== document.documentElement; node = node.parentElement) {
    if (node !== el && node.id && only('#' + CSS.escape(node.id), node)) return ['#' + CSS.escape(node.id)].concat(parts).join(' > ');
    let part = CSS.escape(node.tagName.toLowerCase());
    const parent = node.parentElement;
    const same = parent ? Array.from(parent.children).filter((c) => c.tagName === node.tagName) : [node];
    if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
    parts.unshift(part);
    if (only(parts.join(' > '), el)) return parts.join(' > ');
  }
  return ['html'].concat(parts).join(' > ');
}
`;
