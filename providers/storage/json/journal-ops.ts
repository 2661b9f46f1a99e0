/**
 * The lines of a journal: one JSON object per line.
 * `put` inserts or replaces a document, `del` removes one, `clear` removes all (execution history), `puts`
 * inserts or replaces several at once: one line, so a crash keeps all of them or (a torn tail) none.
 */
export type JournalOp =
  | { op: 'put'; doc: Record<string, unknown> }
  | { op: 'puts'; docs: Array<Record<string, unknown>> }
  | { op: 'del'; id: string }
  | { op: 'clear' };

/** `json` is the already-serialized document, so callers stringify each document once. */
export function encodePut(json: string): string {
  return `{"op":"put","doc":${json}}`;
}

/** `jsons` are the already-serialized documents. */
export function encodePuts(jsons: string[]): string {
  return `{"op":"puts","docs":[${jsons.join(',')}]}`;
}

export function encodeDelete(id: string): string {
  return JSON.stringify({ op: 'del', id });
}

export function encodeClear(): string {
  return '{"op":"clear"}';
}

/** Undefined for anything that is not a well-formed op: the journal treats such a line as torn or corrupt. */
export function decodeOp(line: Buffer): JournalOp | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.op === 'put' && isObject(value.doc)) return { op: 'put', doc: value.doc };
  if (value.op === 'puts' && Array.isArray(value.docs) && value.docs.every(isObject)) return { op: 'puts', docs: value.docs };
  if (value.op === 'del' && typeof value.id === 'string') return { op: 'del', id: value.id };
  if (value.op === 'clear') return { op: 'clear' };
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
