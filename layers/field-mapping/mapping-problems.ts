import type { ExtractOption } from './extract-option.js';

/**
 * What makes a field mapping that passed its schema unusable, in plain words (one per problem), or [] when it is
 * fine: duplicate names, a field with no selector where there is no row, a selector CSS cannot parse.
 */
export async function mappingProblems(mapping: ExtractOption): Promise<string[]> {
  const problems: string[] = [];
  // Loaded only for a task that has a mapping: cheerio's selector engine parses selectors as the page would.
  const $ = (await import('cheerio')).load('');
  const badSelector = (selector: string): string | undefined => {
    try {
      $.root().find(selector);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  if (mapping.list !== undefined) {
    const bad = mapping.list.trim() === '' ? 'it is empty (leave list out for one object from the page)' : badSelector(mapping.list);
    if (bad) problems.push(`extract.list "${mapping.list}" is not a valid CSS selector: ${bad}`);
  }
  const seen = new Set<string>();
  mapping.fields.forEach((field, index) => {
    const at = `extract.fields[${index}] (${field.name})`;
    if (seen.has(field.name)) problems.push(`${at}: the name is used by an earlier field`);
    seen.add(field.name);
    if (!field.selector?.trim()) {
      if (!mapping.list) problems.push(`${at}: a selector is needed when there is no list (there is no row to read)`);
      return;
    }
    const bad = badSelector(field.selector);
    if (bad) problems.push(`${at}: "${field.selector}" is not a valid CSS selector: ${bad}`);
  });
  return problems;
}
