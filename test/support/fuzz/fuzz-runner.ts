// Sends an operation's share of generated requests to the fuzzed service and checks every answer; keeps the
// service usable meanwhile (a replaced API key is re-read, a logged-out session logged in again).
import { randomBytes } from 'node:crypto';
import { ADMIN, sessionCookie } from '../service.js';
import type { FuzzService } from './fuzz-service.js';
import type { Operation } from './openapi-doc.js';
import type { Prng } from './prng.js';
import { planRequest, type FuzzRequest, type PlanContext } from './request-plan.js';
import { checkResponse, type FuzzResponse } from './response-check.js';

export interface Finding {
  operationId: string;
  request: string;
  status: number | 'no answer';
  problems: string[];
  excerpt: string;
}

export interface OperationReport {
  sent: number;
  statuses: Map<number, number>;
  findings: Finding[];
}

const ANSWER_WITHIN_MS = 60_000;
const SESSION_AUTH = new Set(['session', 'sessionNoOrigin', 'sessionCrossSite', 'both']);

function describe(req: FuzzRequest): string {
  const size = req.body === undefined ? 'no body' : `${typeof req.body === 'string' ? req.body.length : req.body.size} bytes`;
  return `${req.method} ${req.url.slice(0, 160)} [auth ${req.auth}, body ${req.bodyKind}, ${size}, type ${req.headers['content-type'] ?? 'none'}]`;
}

/** The answer's text with every planted secret replaced, so a report never prints one. */
function redact(text: string, secrets: Map<string, string>): string {
  let out = text;
  for (const [name, value] of secrets) out = out.split(value).join(`<${name}>`);
  return out.slice(0, 300);
}

async function send(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse | undefined> {
  try {
    const res = await fetch(baseUrl + req.url, {
      method: req.method, headers: req.headers, body: req.body, redirect: 'manual', signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') return undefined;
    throw error;
  }
}

/** Keeps the credentials the fuzzer uses valid after an answer that changed them. */
async function followUp(fz: FuzzService, op: Operation, req: FuzzRequest, res: FuzzResponse, body: any, notes: string[]): Promise<void> {
  if (op.operationId === 'setApiKey' && res.status === 200 && typeof body?.apiKey === 'string') {
    fz.credentials.apiKey = body.apiKey;
    fz.secrets.set(`API key #${fz.secrets.size}`, body.apiKey);
    if (!/^[\x21-\x7e]{32,}$/.test(body.apiKey)) {
      notes.push(`setApiKey accepted a key of ${body.apiKey.length} characters (${JSON.stringify(body.apiKey.slice(0, 12))}...)`);
      const good = randomBytes(32).toString('base64url');
      const reset = await fz.svc.request('POST', '/api/settings/api-key', { cookie: fz.credentials.cookie, headers: { origin: fz.credentials.origin }, body: { apiKey: good } });
      if (reset.status !== 200) throw new Error(`could not put a usable API key back: ${reset.status} ${reset.text}`);
      fz.credentials.apiKey = reset.body.apiKey;
      fz.secrets.set(`API key #${fz.secrets.size}`, reset.body.apiKey);
    }
  }
  if (op.operationId === 'logout' && res.status === 200 && SESSION_AUTH.has(req.auth)) {
    const login = await fz.svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    if (login.status !== 200) throw new Error(`could not log in again after logout: ${login.status} ${login.text}`);
    fz.credentials.cookie = sessionCookie(login.headers);
    const value = decodeURIComponent(fz.credentials.cookie.slice(fz.credentials.cookie.indexOf('=') + 1));
    fz.secrets.set(`session token #${fz.secrets.size}`, value.slice(0, value.lastIndexOf('.')));
  }
}

export async function fuzzOperation(
  fz: FuzzService, op: Operation, rng: Prng, count: number, catalogue: Map<string, number>, bodyLimit: number, notes: string[],
): Promise<OperationReport> {
  const ctx: PlanContext = { doc: fz.doc, credentials: fz.credentials, hints: fz.hints, pool: fz.pool, bodyLimit };
  const report: OperationReport = { sent: 0, statuses: new Map(), findings: [] };
  for (let i = 0; i < count; i++) {
    // One oversize body for about a quarter of the operations that take a body (5 MB each: not for all).
    const forced = i === 0 && op.body && rng.chance(0.25) ? { bodyKind: 'huge' as const, auth: 'apiKey' as const } : undefined;
    const req = planRequest(op, ctx, rng, forced);
    const res = await send(fz.svc.baseUrl, req);
    report.sent++;
    if (!res) {
      report.findings.push({ operationId: op.operationId, request: describe(req), status: 'no answer', problems: [`no answer within ${ANSWER_WITHIN_MS} ms`], excerpt: '' });
      continue;
    }
    report.statuses.set(res.status, (report.statuses.get(res.status) ?? 0) + 1);
    let body: any;
    try { body = JSON.parse(res.text); } catch { body = undefined; }
    const allowed = op.operationId === 'setApiKey' && res.status === 200 ? body?.apiKey : undefined;
    const problems = checkResponse(op, req, res, { catalogue, secrets: fz.secrets, allowed });
    if (problems.length > 0) {
      report.findings.push({ operationId: op.operationId, request: describe(req), status: res.status, problems, excerpt: redact(res.text, fz.secrets) });
    }
    if (res.status >= 200 && res.status < 300) fz.learn(op, body);
    await followUp(fz, op, req, res, body, notes);
  }
  return report;
}
