/**
 * DATABASE_URL carries the password: nothing this provider logs or throws may contain it.
 * `describeTarget` names the server without credentials; `scrub` removes the password from any text.
 */

export function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || 'localhost';
    const port = parsed.port || '5432';
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
    return `${host}:${port}/${database}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

function passwordOf(url: string): string {
  try {
    return new URL(url).password;
  } catch {
    return '';
  }
}

/** `text` with every spelling of the URL's password (raw, percent-encoded, decoded) replaced by `***`. */
export function scrub(text: string, url: string): string {
  const raw = passwordOf(url);
  if (raw === '') return text;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the raw spelling is all there is.
  }
  let out = text;
  for (const secret of new Set([raw, decoded, encodeURIComponent(decoded)])) {
    if (secret !== '') out = out.split(secret).join('***');
  }
  return out;
}

/** A copy of `error` safe to log or attach as a cause: message scrubbed, code kept, no stack of the original. */
export function scrubError(error: unknown, url: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(scrub(message, url)) as Error & { code?: unknown };
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== undefined) copy.code = code;
  return copy;
}
