// Reads the service's OpenAPI document into what the fuzzer needs per operation: where its parameters go, the
// body schema, and for each documented status the error codes it may carry.

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The templated path, e.g. `/api/tasks/{id}`. */
  path: string;
  /** `[]` for a public operation. */
  security: string[];
  parameters: Parameter[];
  body?: { required: boolean; mediaTypes: string[]; schema: Schema };
  /** Documented statuses: for an error status, the codes it lists (`[]` when the document names none). */
  responses: Map<number, string[]>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Follows a local `$ref` (`#/components/schemas/X`) until a schema without one. */
export function resolveRef(doc: OpenApiDoc, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${schema.$ref}`);
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name ? doc.components?.schemas?.[decodeURIComponent(name)] : undefined;
    if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** The codes an error response lists: `error.enum` in the schema or in one of its `allOf` parts. */
function errorCodes(doc: OpenApiDoc, response: any): string[] {
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return [];
  const parts = [resolveRef(doc, schema), ...((schema.allOf ?? []) as Schema[]).map((s) => resolveRef(doc, s))];
  return parts.flatMap((part) => (part.properties?.error?.enum as string[] | undefined) ?? []);
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const responses = new Map<number, string[]>();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        responses.set(Number(status), Number(status) >= 400 ? errorCodes(doc, response) : []);
      }
      const content = op.requestBody?.content as Record<string, { schema?: Schema }> | undefined;
      const mediaTypes = content ? Object.keys(content) : [];
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        security: ((op.security ?? []) as Record<string, unknown>[]).flatMap((s) => Object.keys(s)),
        parameters: ((op.parameters ?? []) as any[]).map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? {} })),
        body: content ? { required: op.requestBody.required === true, mediaTypes, schema: content[mediaTypes[0]!]?.schema ?? {} } : undefined,
        responses,
      });
    }
  }
  return operations;
}
