import { Errors, type ErrorDefinition } from '../../kernel/errors.js';
import { policyErrors } from '../../kernel/http/route-policy.js';
import type { AuthPolicy } from '../../kernel/services.js';
import { componentRef } from './component-refs.js';

/** What the document needs to know of a route to list the errors it can answer with. */
export interface RouteErrorFacts {
  method: string;
  policy: AuthPolicy;
  /** The route validates a body, query, path parameters or headers. */
  validates: boolean;
  /** Its scope reads a body of any media type, so no request is refused with 415. */
  anyMediaType: boolean;
  /** The catalogue errors the route declares (`config.errors`). */
  declared: readonly ErrorDefinition[];
}

/** Methods whose request body Fastify reads (and may refuse), as kernel/http/error-handler.ts maps it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every catalogue error a route can answer with: those of its auth policy, of input it validates or a body it
 * reads (error-handler.ts turns Fastify's refusals into VALIDATION_ERROR, PAYLOAD_TOO_LARGE and
 * UNSUPPORTED_MEDIA_TYPE), INTERNAL_ERROR for the unforeseen, and the ones the route declares.
 */
export function routeErrors(facts: RouteErrorFacts): ErrorDefinition[] {
  const errors: ErrorDefinition[] = [...policyErrors(facts.policy, facts.method), Errors.INTERNAL_ERROR, ...facts.declared];
  if (facts.validates) errors.push(Errors.VALIDATION_ERROR);
  if (BODY_METHODS.has(facts.method)) {
    errors.push(Errors.VALIDATION_ERROR, Errors.PAYLOAD_TOO_LARGE);
    if (!facts.anyMediaType) errors.push(Errors.UNSUPPORTED_MEDIA_TYPE);
  }
  return [...new Map(errors.map((e) => [e.code, e])).values()];
}

/**
 * One response per status: the Error schema with `error` narrowed to the codes that status can carry, and a
 * description naming each code and its message.
 */
export function errorResponses(errors: readonly ErrorDefinition[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const error of errors) byStatus.set(error.statusCode, [...(byStatus.get(error.statusCode) ?? []), error]);
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const sorted = [...group].sort((a, b) => a.code.localeCompare(b.code));
    const codes = sorted.map((e) => e.code);
    responses[status] = {
      description: sorted.map((e) => `\`${e.code}\`: ${e.template}`).join('\n\n'),
      content: {
        'application/json': {
          schema: { allOf: [componentRef('Error'), { type: 'object', required: ['error'], properties: { error: { type: 'string', enum: codes } } }] },
        },
      },
    };
  }
  return responses;
}

/** True for a route's own error-body response (`{ error, details }`), which the catalogue codes replace. */
export function isErrorBody(schema: unknown): boolean {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  return properties?.error?.type === 'string';
}
