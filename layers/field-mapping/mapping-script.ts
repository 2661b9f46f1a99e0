import { applyMapping } from './apply-mapping.js';
import type { ExtractOption } from './extract-option.js';

// The page's DOM as the mapping walks it (apply-mapping.ts MappingDom).
const PAGE_DOM = `{
  root: document,
  all: (scope, selector) => Array.from(scope.querySelectorAll(selector)),
  first: (scope, selector) => scope.querySelector(selector),
  text: (node) => node.textContent ?? '',
  attr: (node, name) => node.getAttribute(name),
}`;

/**
 * The extraction script equivalent to `mapping` (a function body run in the page, returning `result.data`): what a
 * browser run of a task with `extract` runs, and what "Convert to script" hands the user to edit. It carries the
 * source of applyMapping itself, so the browser and browserless modes share one logic.
 */
export function mappingScript(mapping: ExtractOption): string {
  // Only the mapping's own fields, in a fixed order: the script reads the same whatever the stored key order.
  const plain = {
    ...(mapping.list ? { list: mapping.list } : {}),
    fields: mapping.fields.map(({ name, selector, attribute, type }) => ({
      name, ...(selector ? { selector } : {}), ...(attribute ? { attribute } : {}), ...(type ? { type } : {}),
    })),
  };
  return [
    '// Generated from a field mapping (README "Field mapping"): edit freely.',
    `const mapping = ${JSON.stringify(plain, null, 2)};`,
    // Loaders that keep function names (tsx) wrap inner functions in __name(); in the page it is a no-op.
    'const __name = (fn) => fn;',
    `const applyMapping = ${applyMapping.toString()};`,
    `return applyMapping(mapping, ${PAGE_DOM}, document.baseURI);`,
  ].join('\n');
}
