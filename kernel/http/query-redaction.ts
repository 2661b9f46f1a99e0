/**
 * Query parameters whose values are secrets, in any case and with any separator: the words `key`, `sig`, `auth`,
 * `code` (OAuth), `pass`, `pwd`, `otp`, `jwt` standing alone (`key`, `x-auth`), and names containing `token`,
 * `passw`, `secret`, `signature`, `session`, `credential`, `authoriz` or `api_key`/`apiKey`, or ending in `key`.
 */
const SECRET_WORD = /(^|[^a-z])(key|sig|auth|code|pass|pwd|otp|jwt)([^a-z]|$)/i;
const SECRET_PART = /token|passw|secret|signature|session|credential|authoriz|api_?key|key$/i;

export const REDACTED = '[redacted]';

/** True for a query parameter name whose value must not be logged. */
export function isSecretParameter(name: string): boolean {
  return SECRET_WORD.test(name) || SECRET_PART.test(name);
}

/**
 * The URL (a request target like `/path?a=1` or an absolute URL) with the value of every secret-named query
 * parameter replaced; everything else is kept as sent, so the log still shows what was asked for.
 */
export function redactQuery(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const pairs = url.slice(start + 1, end).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // a malformed escape: judge the name as written
    }
    return eq >= 0 && isSecretParameter(name) ? `${rawName}=${REDACTED}` : pair;
  });
  return `${url.slice(0, start)}?${pairs.join('&')}${url.slice(end)}`;
}
