import type { AnyNode, Element } from 'domhandler';
import { applyMapping, type MappingDom } from './apply-mapping.js';
import type { ExtractOption } from './extract-option.js';

/** What browserless mode reads from a fetched page: the mapping's data, the title and the base of its URLs. */
export interface HtmlExtract { data: unknown; title: string }

/**
 * Applies `mapping` to `html` (fetched from `pageUrl`) with cheerio: no script of the page runs. URLs resolve as in
 * the browser (`document.baseURI`): against `<base href>` when the page has one, else the page URL.
 */
export async function extractHtml(html: string, pageUrl: string, mapping: ExtractOption | undefined): Promise<HtmlExtract> {
  // cheerio (parse5 and css-select) loads with the first browserless run, not with the service.
  const $ = (await import('cheerio')).load(html);
  // As document.title: whitespace collapsed.
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  if (!mapping) return { data: null, title };
  // As querySelectorAll in the page: a selector is matched against the whole document, then the matches inside the
  // scope are kept (cheerio's find(selector) matches from the scope down, so `#list .price` would miss a row's
  // price). Each selector is matched once, its matches indexed by each of their ancestors: a row's are one lookup.
  const index = new Map<string, Map<AnyNode, Element[]>>();
  const inside = (scope: AnyNode, selector: string): Element[] => {
    let byAncestor = index.get(selector);
    if (!byAncestor) {
      index.set(selector, byAncestor = new Map());
      for (const element of $<Element, string>(selector).toArray()) {
        for (let up: AnyNode | null = element.parent; up; up = up.parent) {
          const list = byAncestor.get(up);
          if (list) list.push(element);
          else byAncestor.set(up, [element]);
        }
      }
    }
    return byAncestor.get(scope) ?? [];
  };
  const dom: MappingDom<AnyNode> = {
    root: $.root()[0]!,
    all: (scope, selector) => inside(scope, selector),
    first: (scope, selector) => inside(scope, selector)[0] ?? null,
    text: (node) => $(node).text(),
    attr: (node, name) => (node.type === 'tag' || node.type === 'script' || node.type === 'style' ? $(node).attr(name) ?? null : null),
  };
  return { data: applyMapping(mapping, dom, baseOf($('base[href]').first().attr('href'), pageUrl)), title };
}

function baseOf(href: string | undefined, pageUrl: string): string {
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}
