// What every answer must satisfy, whatever was sent: no 5xx, a status the document lists for the operation,
// error bodies in the one shape with a catalogue code the document lists for that status, no stack trace, and
// no planted secret.
import type { Operation } from './openapi-doc.js';
import type { FuzzRequest } from './request-plan.js';

export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface CheckContext {
  /** Catalogue code -> its HTTP status. */
  catalogue: Map<string, number>;
  /** Values that must never be in an answer, by name (for the report; the value is never printed). */
  secrets: Map<string, string>;
  /** A secret the answer may carry on purpose (the API key setApiKey just made). */
  allowed?: string;
}

/**
 * 5xx codes that report a failure of something outside the service (a tablestore or AI provider that answered
 * badly; AI_FAILED is the spec's 500 for generate-selector when every provider fails): allowed where the document
 * lists the code for the operation; any other 5xx is a defect.
 */
export const UPSTREAM_CODES = new Set(['UPSTREAM_ERROR', 'AI_PROVIDERS_FAILED', 'AI_FAILED']);

const STACK = [/\n\s+at [^\n]+:\d+:\d+/, /node:internal\//, /\/node_modules\//, /\.ts:\d+:\d+/, /\b(TypeError|ReferenceError|RangeError): /];
const ERROR_KEYS = new Set(['error', 'details', 'requestId']);

/** The router's own 404 for a path no route matches. */
function isRouteNotFound(status: number, body: any): boolean {
  return status === 404 && body?.error === 'NOT_FOUND' && typeof body.details === 'string' && body.details.startsWith('Route ');
}

export function checkResponse(op: Operation, req: FuzzRequest, res: FuzzResponse, ctx: CheckContext): string[] {
  const problems: string[] = [];
  let body: any;
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  if (json && res.text !== '') {
    try { body = JSON.parse(res.text); } catch { problems.push('a JSON content type with a body that is not JSON'); }
  }
  const upstream = UPSTREAM_CODES.has(body?.error) && (op.responses.get(res.status) ?? []).includes(body.error);
  if (res.status >= 500 && !upstream) problems.push(`answered ${res.status}`);
  const routeMiss = isRouteNotFound(res.status, body);
  if (routeMiss && !req.hostilePath) problems.push('the router found no route for a well-formed path');
  if (!routeMiss && !op.responses.has(res.status)) problems.push(`status ${res.status} is not in the document for ${op.operationId}`);
  if (res.status < 300 && req.omitted.length > 0) {
    problems.push(`answered ${res.status} without what the document marks required: ${req.omitted.join(', ')}`);
  }
  if (res.status >= 400) {
    if (!json || typeof body !== 'object' || body === null) {
      problems.push(`an error answer that is not a JSON object (${res.headers.get('content-type')})`);
    } else {
      const extra = Object.keys(body).filter((k) => !ERROR_KEYS.has(k));
      if (extra.length > 0) problems.push(`error body has fields beyond { error, details, requestId }: ${extra.join(', ')}`);
      if (typeof body.error !== 'string') problems.push('error body without a string `error`');
      else if (!ctx.catalogue.has(body.error)) problems.push(`error code ${body.error} is not in the catalogue`);
      else if (ctx.catalogue.get(body.error) !== res.status) problems.push(`${body.error} sent with ${res.status}, the catalogue says ${ctx.catalogue.get(body.error)}`);
      else {
        const listed = op.responses.get(res.status);
        if (!routeMiss && listed && listed.length > 0 && !listed.includes(body.error)) {
          problems.push(`${body.error} is not among the codes the document lists for ${res.status}: ${listed.join(', ')}`);
        }
      }
      if (body.details !== undefined && typeof body.details !== 'string') problems.push('error `details` is not a string');
      if (typeof body.requestId !== 'string' || body.requestId !== res.headers.get('x-request-id')) problems.push('error `requestId` missing or not the X-Request-Id header');
    }
  }
  // A stored record may quote a page script's own error ("TypeError: ..."); an error answer may not.
  for (const pattern of res.status >= 400 ? STACK : STACK.slice(0, 4)) {
    if (pattern.test(res.text)) problems.push(`looks like a stack trace or internal path (${pattern})`);
  }
  const headerText = [...res.headers].filter(([name]) => name !== 'set-cookie').map(([n, v]) => `${n}: ${v}`).join('\n');
  for (const [name, value] of ctx.secrets) {
    if (value === ctx.allowed) continue;
    if (res.text.includes(value) || headerText.includes(value)) problems.push(`the planted secret "${name}" is in the answer`);
  }
  return problems;
}
