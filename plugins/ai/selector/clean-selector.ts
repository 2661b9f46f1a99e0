import { stripFences } from '../answer.js';

export const MAX_SELECTOR_CHARS = 500;

/** `Selector: `, `CSS selector - `, `The selector is `, `Answer: ` ... in front of the selector. */
const LEAD_IN = /^(?:(?:the\s+)?(?:css\s+)?selector(?:\s+(?:is|would be))?|answer)(?:\s*[:=]\s*|\s+[-–]\s+|\s+)/i;
const QUOTED = /^(["'`])(.*)\1$/;

/** `{"selector": "..."}`, which some models answer with when asked for "only the selector". */
function fromJson(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const selector = (parsed as { selector?: unknown } | null)?.selector;
    return typeof selector === 'string' ? selector : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one CSS selector in a model's answer, or undefined when there is none: the content of a code fence or of
 * the first inline `code` span when the answer has prose around it, else its first line; lead-ins
 * ("Selector:"), wrapping quotes and a sentence's closing full stop removed. Whether it is valid CSS and
 * matches anything is for the live page to say.
 */
export function cleanSelector(answer: string): string | undefined {
  let text = stripFences(answer);
  text = fromJson(text) ?? text;
  const inline = /`([^`\n]+)`/.exec(text);
  if (inline) text = inline[1]!;
  text = text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') ?? '';
  text = text.replace(LEAD_IN, '');
  for (let quoted = QUOTED.exec(text); quoted; quoted = QUOTED.exec(text)) text = quoted[2]!.trim();
  // A selector never ends with `.` or `;`, a sentence does.
  text = text.replace(/[.;]+$/, '').trim();
  if (text === '' || text.length > MAX_SELECTOR_CHARS) return undefined;
  return text;
}
