// What a hostile caller sends instead of a good value: wrong types, sizes, encodings and shapes.
import type { Prng } from './prng.js';

/** JSON values of the wrong kind, or of the right kind but unusable. */
export function hostileValue(rng: Prng): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => rng.pick([true, false]),
    () => rng.pick([0, -1, -0.5, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 4294967296]),
    () => '',
    () => ' ',
    () => 'x'.repeat(rng.pick([257, 2049, 65_537, 200_000])),
    () => 'nul\u0000byte',
    () => '\u0000',
    () => 'lone \ud800 surrogate',
    () => '\u202eRTL override \u200b zero-width \ufeff bom',
    () => '🚀'.repeat(300),
    () => 'Ünïcødé 数据 ✓',
    () => '<script>alert(1)</script>',
    () => "' OR 1=1 --",
    () => '{{constructor.constructor("return process")()}}',
    () => '${process.env}',
    () => '../../../../etc/passwd',
    () => 'file:///etc/passwd',
    () => 'javascript:alert(1)',
    () => 'http://169.254.169.254/latest/meta-data/',
    () => '\r\nX-Injected: 1',
    () => '%00%2e%2e%2f',
    () => [],
    () => [null, 1, 'two', { three: 3 }],
    () => ({}),
    () => ({ $ne: null }),
    () => ({ $where: 'sleep(1000)' }),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => nested(rng.int(20, 60)),
  ])();
}

/** `{ "a": { "a": ... } }` `depth` levels deep (shallow enough to build with JSON.stringify). */
export function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Raw JSON text nested far deeper than any schema allows (a recursive parser's worst case). */
export function deepJson(rng: Prng): string {
  const depth = rng.pick([1_000, 5_000, 20_000]);
  return rng.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Bodies that are not the JSON they claim to be, or are JSON with traps in them. */
export function brokenJson(rng: Prng): string {
  return rng.pick([
    '{', '{"a":', '{"a":1,}', "{'a':1}", '[1,2', 'undefined', 'NaN', '{"a":1}garbage', '\u0000',
    '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1,"a":2}', '"just a string"', '12345678901234567890123456789', '{"a":"\\ud800"}', '\ufeff{}',
  ]);
}

/** Path segments: already percent-encoded where meant, so the URL carries them as written. */
export function hostileSegment(rng: Prng): string {
  return rng.pick([
    'x'.repeat(rng.pick([201, 1000, 3000])),
    '..%2F..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e%2fdata', '..%5C..%5Cwindows', '%00', 'a%00b', '%ZZ', '%',
    '%F0%9F%9A%80', '%E2%80%AE', '%C0%AE%C0%AE', '%3Cscript%3E', "'%20OR%201%3D1", '%7B%22%24ne%22%3Anull%7D',
    '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '%20', '-1', '0', '1e999', 'null',
    'undefined', 'NaN', '9'.repeat(40), 'cred_' + 'A'.repeat(300), 'fuzz_1.png%00.txt', 'a.b.c', '.', '..',
  ]);
}

/** Query values (raw, percent-encoded where meant). */
export function hostileQueryValue(rng: Prng): string {
  return rng.pick([
    '', 'abc', '-1', '0', '1.5', '1e999', '9'.repeat(40), 'NaN', 'true', 'null', '%00', '%ZZ', 'x'.repeat(3000),
    '2025-13-45T99:99:99Z', 'not-a-date', '%F0%9F%9A%80', '%5B%5D', '..%2F..%2F', '%27%20OR%201%3D1', '1%2C2',
  ]);
}

/** Content types a JSON route should refuse (or parse with care). */
export function wrongContentType(rng: Prng): string {
  return rng.pick([
    'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml',
    'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/jsonx', 'json', '*/*',
    'application/vnd.api+json', 'text/html; charset=utf-8', 'application/octet-stream',
  ]);
}
