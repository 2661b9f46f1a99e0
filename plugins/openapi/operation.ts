import http from 'node:http';
import type { RouteOptions } from 'fastify';
import type { AuthPolicy } from '../../kernel/services.js';
import { componentRef, withComponentRefs } from './component-refs.js';
import { errorResponses, isErrorBody, routeErrors } from './error-responses.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function securityOf(policy: AuthPolicy | undefined): Record<string, string[]>[] {
  if (policy === 'public') return [];
  if (policy === 'session') return [{ session: [] }];
  if (policy === 'apiKey') return [{ apiKey: [] }, { bearer: [] }];
  return [{ apiKey: [] }, { bearer: [] }, { session: [] }];
}

/**
 * A response the route declares, in the explicit `{ description, headers, content }` form, so every one has a
 * description (the HTTP reason phrase when the schema gives none) and named schemas become `$ref`s.
 */
function declaredResponse(status: string, entry: unknown, produces: readonly string[]): Json {
  const schema = isObject(entry) ? entry : {};
  const description = typeof schema.description === 'string' ? schema.description : http.STATUS_CODES[Number(status)] ?? 'Answer';
  if (isObject(schema.content)) {
    return { ...schema, description, content: withComponentRefs(schema.content) };
  }
  const { headers, ...body } = schema;
  const media = { schema: withComponentRefs(body) };
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: Object.fromEntries(produces.map((type) => [type, media])),
  };
}

/** A query parameter with a default may be left out (the validator fills it in): not `required` for a client. */
function defaultsOptional(query: Json): Json {
  const properties = isObject(query.properties) ? query.properties : {};
  if (!Array.isArray(query.required)) return query;
  return { ...query, required: query.required.filter((name) => !(isObject(properties[name]) && 'default' in properties[name])) };
}

export interface OperationInput {
  schema: unknown;
  url: string;
  route: Pick<RouteOptions, 'method' | 'config'>;
}

/**
 * The route's schema as the document shows it (@fastify/swagger's `transform`): the operationId the route declares
 * (`schema.operationId`), the security its policy accepts, every response it declares, and one response per error status listing the catalogue codes it
 * can carry. Routes outside `/api`, the docs and the document itself are hidden.
 */
export function describeOperation({ schema: raw, url, route }: OperationInput): { schema: Json; url: string } {
  const schema: Json = isObject(raw) ? raw : {};
  const method = [route.method].flat()[0]!.toUpperCase();
  const policy = route.config?.auth;
  const hide = schema.hide === true || !url.startsWith('/api/') || url.startsWith('/api/docs') || url === '/api/openapi.json';
  const produces = Array.isArray(schema.produces) ? (schema.produces as string[]) : ['application/json'];

  const response: Json = {};
  for (const [status, entry] of Object.entries(isObject(schema.response) ? schema.response : {})) {
    // An error body is rebuilt below from the codes; one whose status no code has stays without them (a test
    // finds it: the route must declare the codes in `config.errors`).
    response[status] = Number(status) >= 400 && isErrorBody(entry)
      ? { description: 'Error (the route declares no code for this status)', content: { 'application/json': { schema: componentRef('Error') } } }
      : declaredResponse(status, entry, produces);
  }
  const errors = routeErrors({
    method,
    policy: policy ?? 'authenticated',
    validates: ['body', 'querystring', 'params', 'headers'].some((part) => schema[part] !== undefined),
    anyMediaType: route.config?.anyMediaType === true,
    declared: route.config?.errors ?? [],
  });
  Object.assign(response, errorResponses(errors));

  const input: Json = {};
  if (schema.body !== undefined) input.body = withComponentRefs(schema.body);
  for (const part of ['querystring', 'params', 'headers']) {
    if (schema[part] !== undefined) input[part] = withComponentRefs(schema[part], { refs: false });
  }
  if (isObject(input.querystring)) input.querystring = defaultsOptional(input.querystring);
  // The scope the route declares (plugins/access refuses a caller without it with 403).
  const access = route.config?.access;
  const description = [access && `Needs the \`${access}\` scope.`, schema.description].filter(Boolean).join('\n\n');
  return { schema: { ...schema, ...input, hide, security: securityOf(policy), response, ...(description ? { description } : {}) }, url };
}
