/**
 * BROWSER_WS_ENDPOINT as logs and errors may show it. A browser grid's token often sits in the query string
 * or the user info, and a Playwright server's path is itself its secret (an unguessable string), so only the
 * scheme, host, port and plain-word path segments (`/devtools/browser`, `/playwright/chromium`) stay.
 */
export function redactEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return '(an unparsable endpoint)';
  }
  const auth = url.username || url.password ? '***@' : '';
  const path = url.pathname.split('/').map((segment) => (segment === '' || isPlainWord(segment) ? segment : '***')).join('/');
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join('&');
  return `${url.protocol}//${auth}${url.host}${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
}

/** `message` with every secret part of `endpoint` replaced by `***` (vendor errors quote the URL they dialled). */
export function scrubEndpoint(message: string, endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return message.split(endpoint).join('***');
  }
  const secrets = new Set<string>([endpoint, url.href]);
  for (const part of [url.username, url.password, ...url.searchParams.values()]) {
    if (part) secrets.add(part).add(decodeURIComponent(part)).add(encodeURIComponent(part));
  }
  for (const segment of url.pathname.split('/')) if (segment && !isPlainWord(segment)) secrets.add(segment);
  let scrubbed = message;
  // Longest first, so the whole URL goes before its parts; very short parts would blank out ordinary words.
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    scrubbed = scrubbed.split(secret).join(secret === endpoint || secret === url.href ? redactEndpoint(endpoint) : '***');
  }
  return scrubbed;
}

function isPlainWord(segment: string): boolean {
  return /^[a-z][a-z_-]{0,19}$/i.test(segment);
}
