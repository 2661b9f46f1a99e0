/** Fenced blocks: ``` or ~~~, an optional language tag ending its line, the code, the same fence. */
const FENCE = /(```|~~~)(?:[ \t]*[\w+#.-]*[ \t]*\r?\n)?([\s\S]*?)\1/;

/**
 * The code of an answer: the first fenced block's content when there is one (models add prose around it),
 * else the whole answer; trimmed. An unclosed fence (the answer cut short) loses its opening line only.
 */
export function stripFences(answer: string): string {
  const text = answer.trim();
  const fenced = FENCE.exec(text);
  if (fenced) return fenced[2]!.trim();
  const opened = /^(```|~~~)[^\n]*\n/.exec(text);
  return opened ? text.slice(opened[0].length).trim() : text;
}
