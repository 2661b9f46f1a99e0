import crypto from 'node:crypto';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: longer messages go in parts below this. */
const PART_BYTES = 7_600;
/** Characters per part: a character is at most 4 bytes in UTF-8, and the header is short. */
const PART_CHARS = Math.floor((PART_BYTES - 64) / 4);
/** Parts of a message that never completes (a part lost with a connection) are forgotten after this. */
const PARTS_KEPT_MS = 30_000;
const PART = /^#([0-9a-f]{16}) (\d+) (\d+) /;

/**
 * The NOTIFY payloads of one topic message: `{"t":topic,"m":message}` as one payload when it fits, else in parts
 * `#<id> <index> <count> <piece>` (pieces never split a surrogate pair) that `createReassembler` joins again.
 */
export function notifyPayloads(topic: string, json: string): string[] {
  const whole = `{"t":${JSON.stringify(topic)},"m":${json}}`;
  if (Buffer.byteLength(whole) < PART_BYTES) return [whole];
  const pieces: string[] = [];
  for (let at = 0; at < whole.length;) {
    let end = Math.min(at + PART_CHARS, whole.length);
    const last = whole.charCodeAt(end - 1);
    if (end < whole.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // keep the pair together
    pieces.push(whole.slice(at, end));
    at = end;
  }
  const id = crypto.randomBytes(8).toString('hex');
  return pieces.map((piece, index) => `#${id} ${index} ${pieces.length} ${piece}`);
}

/** Joins the payloads of `notifyPayloads` back into `(topic, message JSON)`; anything malformed is dropped. */
export function createReassembler(deliver: (topic: string, json: string) => void): (payload: string) => void {
  const partial = new Map<string, { pieces: string[]; got: number; firstMs: number }>();

  const deliverWhole = (whole: string) => {
    let parsed: { t?: unknown; m?: unknown };
    try {
      parsed = JSON.parse(whole) as { t?: unknown; m?: unknown };
    } catch {
      return;
    }
    if (typeof parsed.t === 'string') deliver(parsed.t, JSON.stringify(parsed.m ?? null));
  };

  return (payload) => {
    const part = PART.exec(payload);
    if (!part) return deliverWhole(payload);
    const [head, id, index, count] = part as unknown as [string, string, string, string];
    const now = Date.now();
    for (const [key, entry] of partial) if (now - entry.firstMs > PARTS_KEPT_MS) partial.delete(key);
    const entry = partial.get(id) ?? { pieces: new Array<string>(Number(count)), got: 0, firstMs: now };
    partial.set(id, entry);
    const i = Number(index);
    if (i >= entry.pieces.length || entry.pieces[i] !== undefined) return;
    entry.pieces[i] = payload.slice(head.length);
    if (++entry.got < entry.pieces.length) return;
    partial.delete(id);
    deliverWhole(entry.pieces.join(''));
  };
}
