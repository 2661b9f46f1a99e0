// Engine errors as a run shows them (its error and log lines): Playwright appends a call log, coloured with
// terminal escape codes, that quotes every URL and selector it tried; both engines quote URLs whole, query
// strings included (which may carry tokens). A run keeps the first line, without colours or the engine's
// prefix, and every URL in it without credentials, query values or fragment.

/** Playwright's `page.evaluate: ` and error-name prefixes, which Puppeteer does not give. */
const ENGINE_PREFIX = /^(?:(?:page|frame|locator|elementHandle|keyboard|mouse)\.\w+: )?(?:[A-Z]\w*Error: |Error: )*/;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

/** `raw`'s first line, without colour codes or the engine's prefix, its URLs cleaned (see `cleanUrl`). */
export function cleanMessage(raw: string): string {
  const firstLine = raw.replace(ANSI, '').split('\n')[0]!.replace(ENGINE_PREFIX, '').trim();
  return firstLine.replace(URL_IN_TEXT, (found) => {
    const tail = TRAILING.exec(found)?.[0] ?? '';
    return cleanUrl(found.slice(0, found.length - tail.length)) + tail;
  });
}

/**
 * `url` without credentials or fragment, each query value replaced by `***` as the endpoint redaction writes it
 * (names stay: they help, values may be secrets).
 */
export function cleanUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/[?#].*$/, '');
  }
  const names = [...parsed.searchParams.keys()];
  const query = names.length > 0 ? `?${names.map((name) => `${encodeURIComponent(name)}=***`).join('&')}` : '';
  // `http://host:port` stays as written, not `http://host:port/`.
  const path = parsed.pathname === '/' && !/^[^:]+:\/\/[^/?#]*\//.test(url) ? '' : parsed.pathname;
  return `${parsed.protocol}//${parsed.host}${path}${query}`;
}
