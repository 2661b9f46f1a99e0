// One generated request for an operation: its path parameters, query, headers, credentials and body, good or
// hostile as the generator draws them.
import type { Prng } from './prng.js';
import type { Operation, OpenApiDoc } from './openapi-doc.js';
import { valueFor, type Hints } from './schema-values.js';
import { brokenJson, deepJson, hostileQueryValue, hostileSegment, hostileValue, wrongContentType } from './hostile-values.js';

export type AuthKind = 'apiKey' | 'bearer' | 'session' | 'sessionNoOrigin' | 'sessionCrossSite' | 'none' | 'badKey' | 'badCookie' | 'bodyKey' | 'both';
export type BodyKind = 'valid' | 'mutated' | 'dropped' | 'extra' | 'wrongRoot' | 'deep' | 'broken' | 'empty' | 'none' | 'wrongType' | 'noType' | 'huge';

export interface Credentials {
  apiKey: string;
  cookie: string;
  origin: string;
}

export interface PlanContext {
  doc: OpenApiDoc;
  credentials: Credentials;
  hints: Hints;
  /** Known good values for a path parameter of this operation (ids of records that exist). */
  pool(op: Operation, param: string): string[];
  /** Request body size limit of the service, for the oversize case. */
  bodyLimit: number;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Blob;
  auth: AuthKind;
  bodyKind: BodyKind;
  /** A path parameter was hostile: the router may not match the route at all. */
  hostilePath: boolean;
  /**
   * Query parameters the document marks required that this request left out (`query.limit`). Bodies are not
   * counted: @fastify/swagger marks every declared body required, though several routes take none.
   */
  omitted: string[];
}

const AUTH_WEIGHTS: [AuthKind, number][] = [
  ['apiKey', 35], ['session', 18], ['bearer', 8], ['sessionNoOrigin', 5], ['sessionCrossSite', 5], ['none', 8],
  ['badKey', 7], ['badCookie', 6], ['bodyKey', 4], ['both', 4],
];
const BODY_WEIGHTS: [BodyKind, number][] = [
  ['valid', 40], ['mutated', 20], ['dropped', 5], ['extra', 5], ['wrongRoot', 6], ['deep', 3], ['broken', 6],
  ['empty', 4], ['none', 3], ['wrongType', 6], ['noType', 2],
];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function weighted<T>(rng: Prng, table: [T, number][]): T {
  let roll = rng.next() * table.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, weight] of table) if ((roll -= weight) < 0) return item;
  return table[table.length - 1]![0];
}

function applyAuth(kind: AuthKind, creds: Credentials, headers: Record<string, string>, rng: Prng): void {
  const session = () => { headers.cookie = creds.cookie; };
  switch (kind) {
    case 'apiKey': headers['x-api-key'] = creds.apiKey; break;
    case 'bearer': headers.authorization = `Bearer ${creds.apiKey}`; break;
    case 'session': session(); headers.origin = creds.origin; headers['sec-fetch-site'] = 'same-origin'; break;
    case 'sessionNoOrigin': session(); break;
    case 'sessionCrossSite': session(); headers.origin = 'http://evil.example'; headers['sec-fetch-site'] = 'cross-site'; break;
    case 'badKey': headers[rng.pick(['x-api-key', 'authorization'])] = rng.pick([
      'wrong', 'x'.repeat(600), `${creds.apiKey}x`, creds.apiKey.slice(0, -1), 'Bearer', 'Basic YWRtaW46YWRtaW4=', '%00', ' ',
    ]); break;
    case 'badCookie': headers.cookie = rng.pick([
      'taskloom_session=garbage', 'taskloom_session=', `${creds.cookie}x`, 'taskloom_session=s%3Aabc.def',
      `taskloom_session=${'a'.repeat(4000)}`, 'taskloom_session=%ZZ', `${creds.cookie}; ${creds.cookie}x`,
    ]); break;
    case 'both': session(); headers['x-api-key'] = creds.apiKey; break;
    case 'none': case 'bodyKey': break;
  }
}

/** The body, as text or bytes, and the content type sent with it (undefined: no header). */
function makeBody(op: Operation, ctx: PlanContext, kind: BodyKind, rng: Prng, auth: AuthKind): { body?: string | Blob; type?: string } {
  const schema = op.body?.schema ?? { type: 'object', additionalProperties: true };
  const json = 'application/json';
  const good = () => valueFor(ctx.doc, schema, rng, ctx.hints);
  const withKey = (value: unknown) => (auth === 'bodyKey' && value && typeof value === 'object' && !Array.isArray(value)
    ? { ...value, apiKey: ctx.credentials.apiKey } : value);
  switch (kind) {
    case 'valid': return { body: JSON.stringify(withKey(good())), type: json };
    case 'mutated': case 'dropped': case 'extra': {
      const value = good();
      if (!value || typeof value !== 'object' || Array.isArray(value)) return { body: JSON.stringify(hostileValue(rng)), type: json };
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (kind === 'mutated' && keys.length > 0) record[rng.pick(keys)] = hostileValue(rng);
      else if (kind === 'dropped' && keys.length > 0) delete record[rng.pick(keys)];
      else record[rng.pick(['unexpected', '__proto__', 'constructor', '$where', 'x'.repeat(300)])] = hostileValue(rng);
      return { body: JSON.stringify(withKey(record)), type: json };
    }
    case 'wrongRoot': return { body: JSON.stringify(rng.pick([null, [], [good()], 'text', 42, true, {}])), type: json };
    case 'deep': return { body: deepJson(rng), type: json };
    case 'broken': return { body: brokenJson(rng), type: json };
    case 'empty': return { body: '', type: json };
    case 'none': return {};
    case 'wrongType': return { body: rng.chance(0.5) ? JSON.stringify(good()) : 'a=1&b=2', type: wrongContentType(rng) };
    case 'noType': return { body: new Blob([JSON.stringify(good())]) };
    case 'huge': return { body: JSON.stringify({ padding: 'x'.repeat(ctx.bodyLimit + 1024) }), type: json };
  }
}

function queryString(op: Operation, ctx: PlanContext, rng: Prng, omitted: string[]): string {
  const parts: string[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    if (!(p.required ? rng.chance(0.9) : rng.chance(0.5))) {
      if (p.required) omitted.push(`query.${p.name}`);
      continue;
    }
    const value = rng.chance(0.7) ? encodeURIComponent(String(valueFor(ctx.doc, p.schema, rng, ctx.hints, 0, p.name))) : hostileQueryValue(rng);
    parts.push(`${p.name}=${value}`);
    if (rng.chance(0.05)) parts.push(`${p.name}=${hostileQueryValue(rng)}`);
    if (rng.chance(0.03)) parts.push(`${p.name}[$gt]=0`);
  }
  if (rng.chance(0.1)) parts.push(`${rng.pick(['unknown', '__proto__[x]', 'apiKey', 'key', 'a'.repeat(200)])}=${hostileQueryValue(rng)}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

export function planRequest(op: Operation, ctx: PlanContext, rng: Prng, forced?: Partial<Pick<FuzzRequest, 'auth' | 'bodyKind'>>): FuzzRequest {
  let hostilePath = false;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    const pool = ctx.pool(op, name);
    const roll = rng.next();
    if (roll < 0.45 && pool.length > 0) return encodeURIComponent(rng.pick(pool));
    if (roll < 0.7) return encodeURIComponent(String(valueFor(ctx.doc, param?.schema ?? { type: 'string' }, rng, ctx.hints, 0, name)) || 'x');
    hostilePath = true;
    return hostileSegment(rng);
  });
  const headers: Record<string, string> = {};
  const auth = forced?.auth ?? weighted(rng, AUTH_WEIGHTS);
  applyAuth(auth, ctx.credentials, headers, rng);
  for (const p of op.parameters.filter((x) => x.in === 'header')) {
    if (rng.chance(0.3)) headers[p.name] = rng.pick(['respond-async', 'respond-async, wait=1', 'x'.repeat(2000), '', 'return=minimal']);
  }
  if (rng.chance(0.05)) headers['x-request-id'] = rng.pick(['x'.repeat(500), 'bad id with spaces', '../../etc', 'ok-id-1']);
  const omitted: string[] = [];
  let bodyKind: BodyKind = 'none';
  let body: string | Blob | undefined;
  if (op.body || BODY_METHODS.has(op.method)) {
    bodyKind = forced?.bodyKind ?? (op.body ? weighted(rng, BODY_WEIGHTS) : rng.chance(0.8) ? 'none' : weighted(rng, BODY_WEIGHTS));
    const made = makeBody(op, ctx, bodyKind, rng, auth);
    body = made.body;
    if (made.type) headers['content-type'] = made.type;
  }
  const url = path + queryString(op, ctx, rng, omitted);
  return { method: op.method, url, headers, body, auth, bodyKind, hostilePath, omitted };
}
