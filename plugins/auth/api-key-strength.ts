import { Errors } from '../../kernel/errors.js';

export const API_KEY_MIN_LENGTH = 32;
export const API_KEY_MIN_BITS = 128;
/** The spec's upper limit (API_KEY_TOO_LONG), which the auth provider enforces. */
const API_KEY_MAX_LENGTH = 512;

/** The size of the character classes `key` draws from: lower case, upper case, digits, ASCII symbols, others. */
function poolSize(key: string): number {
  const classes: [RegExp, number][] = [[/[a-z]/, 26], [/[A-Z]/, 26], [/[0-9]/, 10], [/[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/, 33], [/[^\x20-\x7e]/, 100]];
  return classes.reduce((sum, [pattern, size]) => sum + (pattern.test(key) ? size : 0), 0);
}

/**
 * A deliberately cautious estimate of the bits a key carries: each character is worth log2 of the alphabet it
 * seems drawn from (the classes it uses, but no more than the different characters it shows), except a character
 * that continues a run (`aaa`, `abc`, `321`) or ends a stretch of four seen earlier (`passwordpassword`), which
 * is worth nothing. Random keys of 43 base64 characters or 64 hex digits score about 200 and 256 bits.
 */
export function estimateKeyBits(key: string): number {
  const codes = [...key].map((c) => c.codePointAt(0)!);
  let counted = 0;
  for (let i = 0; i < codes.length; i++) {
    const step = i >= 2 ? codes[i]! - codes[i - 1]! : undefined;
    const run = step !== undefined && Math.abs(step) <= 1 && step === codes[i - 1]! - codes[i - 2]!;
    const repeat = i >= 3 && key.slice(0, i).includes(String.fromCodePoint(...codes.slice(i - 3, i + 1)));
    if (!run && !repeat) counted++;
  }
  const alphabet = Math.max(2, Math.min(poolSize(key), new Set(codes).size));
  return Math.floor(counted * Math.log2(alphabet));
}

/** Throws API_KEY_TOO_WEAK for a supplied key shorter than 32 characters or below 128 estimated bits. */
export function assertStrongApiKey(key: string): void {
  if (key.length > API_KEY_MAX_LENGTH) return; // API_KEY_TOO_LONG, from the provider
  if (key.length < API_KEY_MIN_LENGTH) {
    throw Errors.API_KEY_TOO_WEAK({ reason: `it is ${key.length} characters long; at least ${API_KEY_MIN_LENGTH} random characters are needed` });
  }
  const bits = estimateKeyBits(key);
  if (bits < API_KEY_MIN_BITS) {
    throw Errors.API_KEY_TOO_WEAK({
      reason: `it carries about ${bits} bits by estimate, and at least ${API_KEY_MIN_BITS} are needed (repeated stretches and runs such as aaa or 123 count for nothing)`,
    });
  }
}
