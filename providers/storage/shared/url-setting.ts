import { Type } from 'typebox';

/** Why `value` is not an absolute URL with one of `protocols`; undefined when it is. Never repeats the value (it may hold a password). */
function problem(value: string, protocols: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  return protocols.includes(url.protocol) ? undefined : `must use ${protocols.join(' or ')}, not ${url.protocol}`;
}

/** A configuration variable holding a database URL of one of `protocols` (e.g. `['postgres:', 'postgresql:']`). */
export function urlSetting(protocols: readonly string[]) {
  return Type.Refine(Type.String(), (value) => problem(value, protocols) === undefined, (value) => problem(value, protocols) ?? '');
}
