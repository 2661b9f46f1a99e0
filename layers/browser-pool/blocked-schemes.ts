/**
 * Schemes no page of a browser this service launches may show, whatever drives it (a run, a person in the
 * headful window, a DevTools client): `file:` reads the host's files (the store, keys, /etc); `chrome:` and the
 * other browser-internal schemes are pages with powers over the browser itself (settings, downloads, net logs).
 */
export const BLOCKED_SCHEMES: readonly string[] = [
  'file:', 'chrome:', 'chrome-untrusted:', 'chrome-search:', 'chrome-extension:', 'devtools:',
];

/**
 * Chromium's own new-tab page: what a person's Ctrl+T in the headful window opens. It reads nothing from the
 * host, so closing it on sight would only break the window.
 */
const NEW_TAB_PAGES = /^(chrome:\/\/(newtab|new-tab-page|new-tab-page-third-party)\/|chrome-search:\/\/(local-ntp|most-visited)\/)/i;

/** True when a navigation to `url` must be refused (`view-source:` is judged by the URL it wraps). */
export function isBlockedNavigation(url: string): boolean {
  const inner = url.trim().replace(/^(view-source:\s*)+/i, '');
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(inner)?.[0].toLowerCase();
  return scheme !== undefined && BLOCKED_SCHEMES.includes(scheme);
}

/** A page already showing `url` is closed (or sent away) unless it is Chromium's new-tab page. */
export function mustLeavePage(url: string): boolean {
  return isBlockedNavigation(url) && !NEW_TAB_PAGES.test(url.trim());
}
