import type { TSchema } from 'typebox';
import { SCHEMA_NAME, namedSchemas } from '../../kernel/http/named-schema.js';

type Json = Record<string, unknown>;

export const COMPONENTS_PATH = '#/components/schemas/';

export const componentRef = (name: string): Json => ({ $ref: COMPONENTS_PATH + name });

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * A copy of a route schema for the document, as plain JSON: each use of a named schema (kernel/http/named-schema.ts)
 * becomes a `$ref` to its component. A use that differs from the named schema (a variant spread from it with other
 * keywords) stays inline; the naming keyword itself never reaches the document.
 */
export function withComponentRefs(schema: unknown, options: { refs: boolean; root?: string } = { refs: true }): unknown {
  const texts = new Map<string, string>();
  const textOf = (name: string, named: TSchema) => {
    let text = texts.get(name);
    if (text === undefined) texts.set(name, (text = JSON.stringify(named)));
    return text;
  };
  const walk = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (!isObject(node)) return node;
    const name = node[SCHEMA_NAME];
    if (options.refs && typeof name === 'string' && !(depth === 0 && name === options.root)) {
      const named = namedSchemas().get(name);
      if (named !== undefined && JSON.stringify(node) === textOf(name, named)) return componentRef(name);
    }
    const copy: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== SCHEMA_NAME) copy[key] = walk(value, depth + 1);
    }
    return copy;
  };
  return walk(schema, 0);
}

/** The document's shared schemas: every named schema, with the named schemas inside it as `$ref`s. */
export function componentSchemas(): Record<string, object> {
  const components: Record<string, object> = {};
  for (const [name, schema] of [...namedSchemas()].sort(([a], [b]) => a.localeCompare(b))) {
    components[name] = withComponentRefs(schema, { refs: true, root: name }) as object;
  }
  return components;
}
