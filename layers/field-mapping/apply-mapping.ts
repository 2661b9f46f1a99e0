import type { ExtractOption } from './extract-option.js';

/**
 * How a mapping walks a document: the page's DOM (mapping-script.ts, in the browser) or cheerio (extract-html.ts,
 * browserless mode). Both read `textContent`, never the layout-dependent `innerText`, so they agree.
 */
export interface MappingDom<N> {
  /** What a mapping without a list reads its one row from. */
  root: N;
  all(scope: N, selector: string): N[];
  /** The first match inside `scope`, or null. */
  first(scope: N, selector: string): N | null;
  /** The node's textContent. */
  text(node: N): string;
  attr(node: N, name: string): string | null;
}

/**
 * The one extraction logic of a field mapping: `data` as an extraction script would return it. Self-contained
 * (no import used in its body, no template literal), since the browser runs its source text (mapping-script.ts):
 * Node and the page then normalise text and turn types the same way.
 * - text and attribute values: whitespace runs (spaces, tabs, newlines, no-break spaces) collapse to one space, then
 *   trimmed; a missing element or attribute gives null;
 * - number: the first number in the text (`-1,234.5` in `Price: -1,234.5 EUR`: `,` is a thousands separator), null
 *   if there is none;
 * - date: ISO 8601 (`Date.parse`), null if unparsable;
 * - url: resolved against `baseUrl`, null if empty or invalid.
 */
export function applyMapping<N>(mapping: ExtractOption, dom: MappingDom<N>, baseUrl: string): unknown {
  const clean = (raw: string): string => raw.replace(/\s+/g, ' ').trim();
  const typed = (value: string, type: string | undefined): unknown => {
    if (type === 'number') {
      const found = /-?\d[\d,]*(?:\.\d+)?|-?\.\d+/.exec(value);
      return found ? Number(found[0].replace(/,/g, '')) : null;
    }
    if (type === 'date') {
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? null : new Date(ms).toISOString();
    }
    if (type === 'url') {
      if (value === '') return null;
      try {
        return new URL(value, baseUrl).href;
      } catch {
        return null;
      }
    }
    return value;
  };
  const row = (scope: N): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const field of mapping.fields) {
      const node = field.selector ? dom.first(scope, field.selector) : scope;
      const raw = node === null ? null : field.attribute ? dom.attr(node, field.attribute) : dom.text(node);
      out[field.name] = raw === null ? null : typed(clean(raw), field.type);
    }
    return out;
  };
  return mapping.list ? dom.all(dom.root, mapping.list).map(row) : row(dom.root);
}
