/** Characters of reduced HTML sent to the model: about 10 000 tokens, within every default model's window. */
export const DEFAULT_HTML_BUDGET_CHARS = 40_000;

export const SELECTOR_SYSTEM_PROMPT = [
  'You write CSS selectors for a browser automation tool.',
  'You get the simplified HTML of a web page and a description of one element on it.',
  'Answer with exactly one CSS selector that matches that element, and nothing else: no explanation, no quotes, no Markdown.',
  'Prefer stable hooks: an id, a data-testid or similar attribute, name, aria-label, placeholder or role, then meaningful class names.',
  'Avoid :nth-child and long descendant chains unless nothing else tells the element apart. Never answer XPath or :contains().',
].join('\n');

/** The user message: what to find, where, and the page. */
export function selectorUserPrompt(prompt: string, url: string, reducedHtml: string): string {
  return `Element: ${prompt.trim()}\nPage: ${url}\n\nHTML:\n${reducedHtml}`;
}
