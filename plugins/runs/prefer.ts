/**
 * True when a `Prefer` header (RFC 7240) asks for `respond-async`. Preferences are comma-separated tokens, each
 * optionally `=value` and `;params`, names case-insensitive; several `Prefer` headers arrive joined by commas.
 * Quoted values are not unquoted: no preference this service reads carries one.
 */
export function prefersRespondAsync(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  return text.split(',').some((preference) => preference.split(/[=;]/, 1)[0]!.trim().toLowerCase() === 'respond-async');
}
