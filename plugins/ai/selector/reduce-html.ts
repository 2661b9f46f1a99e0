import { Parser } from 'htmlparser2';

/** Elements whose content says nothing about what can be selected (or is not on screen at all). */
const DROPPED = new Set(['head', 'script', 'style', 'noscript', 'template', 'link', 'meta', 'base', 'object', 'embed', 'canvas']);
/** Kept as a tag (it may carry an id or label) without its drawing: paths, groups, defs. */
const EMPTIED = new Set(['svg', 'math']);
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param']);

/** Attributes a selector can use or that say what an element is. */
const KEPT = new Set([
  'id', 'class', 'name', 'role', 'type', 'placeholder', 'title', 'alt', 'for', 'href', 'value', 'label', 'action',
  'data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy', 'contenteditable', 'disabled', 'checked', 'selected',
]);
/** `value` labels these; elsewhere it may be a pre-filled secret (a hidden CSRF token, a password). */
const LABELLED_BY_VALUE = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'option']);

export const MAX_ATTRIBUTE_CHARS = 100;
export const MAX_TEXT_CHARS = 200;
const MAX_CLASS_CHARS = 40;
const MAX_CLASSES = 6;
const TRUNCATED = '<!-- truncated -->';

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Keeps short classes, the first few: generated ones (`css-1x2y3z4a5b6c7d8e`) are long and useless. */
function classes(value: string): string {
  return value.split(/\s+/).filter((name) => name !== '' && name.length <= MAX_CLASS_CHARS).slice(0, MAX_CLASSES).join(' ');
}

function keptAttributes(tag: string, attributes: Record<string, string>): string {
  let out = '';
  for (const [name, raw] of Object.entries(attributes)) {
    if (!KEPT.has(name) && !name.startsWith('aria-')) continue;
    if (name === 'value' && !(tag === 'option' || tag === 'button' || LABELLED_BY_VALUE.has(attributes.type ?? ''))) continue;
    const value = name === 'class' ? classes(raw) : raw.replace(/\s+/g, ' ').trim();
    if (value.length > MAX_ATTRIBUTE_CHARS || (name === 'class' && value === '')) continue;
    out += value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`;
  }
  return out;
}

/**
 * A compact form of a page's HTML for a model that must pick a CSS selector: no scripts, styles, comments,
 * head or SVG drawing; only the attributes a selector can use, none longer than MAX_ATTRIBUTE_CHARS; text
 * with its whitespace collapsed and cut at MAX_TEXT_CHARS. Stops at `budgetChars` (the result never exceeds
 * it), ending with a `truncated` comment when the page did not fit.
 */
export function reduceHtml(html: string, budgetChars: number): string {
  let out = '';
  let full = false;
  /** Depth inside a dropped or emptied element; nothing is written while above 0. */
  let hidden = 0;
  /** For each open element: whether its end tag must be written. */
  const open: boolean[] = [];
  const room = Math.max(0, budgetChars - TRUNCATED.length);

  const write = (piece: string) => {
    if (full) return;
    if (out.length + piece.length > room) full = true;
    else out += piece;
  };

  let pending = '';
  const flushText = () => {
    const text = pending.replace(/\s+/g, ' ').trim();
    pending = '';
    if (text !== '') write(escapeText(text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text));
  };

  const parser = new Parser({
    onopentag(tag, attributes) {
      flushText();
      if (hidden > 0 || DROPPED.has(tag)) {
        if (!VOID.has(tag)) hidden++;
        open.push(false);
        return;
      }
      write(`<${tag}${keptAttributes(tag, attributes)}>`);
      open.push(!VOID.has(tag));
      if (EMPTIED.has(tag)) hidden++;
    },
    ontext(raw) {
      // The parser hands text over in pieces (around entities): gathered until the next tag.
      if (hidden === 0) pending += raw;
    },
    onclosetag(tag) {
      flushText();
      const written = open.pop();
      if (EMPTIED.has(tag) && written) hidden--;
      else if (written === false && !VOID.has(tag) && hidden > 0) hidden--;
      if (written) write(`</${tag}>`);
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  flushText();
  return full ? out + TRUNCATED : out;
}
