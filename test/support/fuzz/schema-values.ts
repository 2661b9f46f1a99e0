// Valid-ish values from a JSON schema (the OpenAPI document's request schemas): what a careful client would
// send, so the fuzzer reaches the code behind validation. Property names with a meaning (a page URL, a proxy
// server) get values that work against the test's local servers.
import type { Prng } from './prng.js';
import { resolveRef, type OpenApiDoc, type Schema } from './openapi-doc.js';

/** Values for properties the service checks beyond their schema, by property name. */
export type Hints = Record<string, (rng: Prng) => unknown>;

const WORDS = ['alpha', 'beta', 'task', 'run', 'page', 'title', 'x', 'Ünïcødé', '数据', 'emoji 🚀'];

/** A string of `min`..`max` characters, made of plain words unless the schema's pattern or format asks. */
function stringFor(schema: Schema, rng: Prng): string {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  switch (schema.format) {
    case 'date-time': return new Date(Date.UTC(2025, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
    case 'email': return `user${rng.int(1, 999)}@example.com`;
    case 'uri': case 'url': return `https://example.com/${rng.int(1, 99)}`;
  }
  if (schema.pattern === '^([A-Za-z0-9_-]+)_(\\d+)\\.(png|jpg|webm)$') return `fuzz_${rng.int(1, 99999)}.${rng.pick(['png', 'jpg', 'webm'])}`;
  let text = '';
  while (text.length < min || (text.length < max && rng.chance(0.5))) text += (text ? ' ' : '') + rng.pick(WORDS);
  // By code point, so an emoji is never cut in half (a lone surrogate cannot be percent-encoded).
  text = Array.from(text).slice(0, max).join('');
  return text.length < min ? text.padEnd(min, 'x') : text;
}

function numberFor(schema: Schema, rng: Prng, integer: boolean): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : min + 100);
  const value = min + rng.next() * (Math.min(max, min + 1000) - min);
  return integer ? Math.floor(value) : Math.round(value * 100) / 100;
}

export function valueFor(doc: OpenApiDoc, raw: Schema, rng: Prng, hints: Hints = {}, depth = 0, name?: string): unknown {
  const schema = resolveRef(doc, raw ?? {});
  if (name && hints[name] && rng.chance(0.9)) return hints[name]!(rng);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const variants = (schema.anyOf ?? schema.oneOf) as Schema[];
    return valueFor(doc, rng.pick(variants), rng, hints, depth + 1, name);
  }
  if (Array.isArray(schema.allOf)) {
    const merged = (schema.allOf as Schema[]).map((s) => resolveRef(doc, s)).reduce((acc, s) => ({
      ...acc, ...s,
      properties: { ...acc.properties, ...s.properties },
      required: [...(acc.required ?? []), ...(s.required ?? [])],
    }), {} as Schema);
    delete merged.allOf;
    return valueFor(doc, merged, rng, hints, depth + 1, name);
  }
  const type = Array.isArray(schema.type) ? rng.pick(schema.type.filter((t: string) => t !== 'null')) : schema.type;
  switch (type) {
    case 'string': return stringFor(schema, rng);
    case 'integer': return numberFor(schema, rng, true);
    case 'number': return numberFor(schema, rng, false);
    case 'boolean': return rng.chance(0.5);
    case 'null': return null;
    case 'array': {
      const min = schema.minItems ?? 0;
      const count = Math.min(schema.maxItems ?? 3, depth > 4 ? min : rng.int(min, min + 2));
      return Array.from({ length: count }, () => valueFor(doc, schema.items ?? {}, rng, hints, depth + 1));
    }
    case 'object': return objectFor(doc, schema, rng, hints, depth);
  }
  if (schema.properties) return objectFor(doc, schema, rng, hints, depth);
  return rng.pick(['free', 1, true, null, { any: 'thing' }]);
}

function objectFor(doc: OpenApiDoc, schema: Schema, rng: Prng, hints: Hints, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set<string>(schema.required ?? []);
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    if (required.has(key) || (depth < 4 && rng.chance(0.6))) out[key] = valueFor(doc, sub, rng, hints, depth + 1, key);
  }
  const extra = schema.additionalProperties;
  if (extra !== false && extra !== undefined && Object.keys(out).length < (schema.maxProperties ?? 99) && rng.chance(0.3)) {
    out[`k${rng.int(1, 99)}`] = valueFor(doc, extra === true ? {} : extra, rng, hints, depth + 1);
  }
  return out;
}
