// Walks every operation of the document in a fixed order with its request budget, resetting what the fuzzer
// may have disturbed between operations, and sums up what came back.
import { errorCatalogue } from '../../../kernel/errors.js';
import type { FuzzService } from './fuzz-service.js';
import { fuzzOperation, type Finding } from './fuzz-runner.js';
import { operationsOf, type Operation } from './openapi-doc.js';
import type { Prng } from './prng.js';

export interface FuzzPlan {
  perOperation: number;
  /** Request counts that differ from `perOperation` (browser and AI work is slow; login guesses get slowed down). */
  budgets: Record<string, number>;
  /** Operations not sent at all, with the reason printed. */
  skipped: Record<string, string>;
  bodyLimit: number;
}

export interface FuzzSummary {
  operations: Operation[];
  sent: number;
  statuses: Map<number, number>;
  perOperation: Map<string, number>;
  findings: Finding[];
  notes: string[];
}

/** Last: logging out needs no login guesses before it, and the guesses slow the admin's logins down. */
const LAST = ['logout', 'login'];

async function settle(fz: FuzzService): Promise<void> {
  const headers = { apiKey: fz.credentials.apiKey };
  // A schedule the fuzzer saved must not start runs in the middle of the next operation.
  const schedules = await fz.svc.request('GET', '/api/schedules', headers);
  for (const entry of schedules.body?.schedules ?? []) {
    if (entry.schedule?.enabled) await fz.svc.request('DELETE', `/api/schedules/${encodeURIComponent(entry.taskId)}`, headers);
  }
  // At most one browser session is open at a time; close it so the next operation starts from none.
  for (let i = 0; i < 3; i++) {
    const closed = await fz.svc.request('POST', '/api/browser/close', { ...headers, body: {} });
    if (closed.status !== 200) break;
  }
}

export async function fuzzAll(fz: FuzzService, rng: Prng, plan: FuzzPlan, log: (line: string) => void): Promise<FuzzSummary> {
  const catalogue = new Map(errorCatalogue().map((e) => [e.code, e.statusCode]));
  const operations = operationsOf(fz.doc);
  const ordered = [...operations].sort((a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId));
  const summary: FuzzSummary = { operations, sent: 0, statuses: new Map(), perOperation: new Map(), findings: [], notes: [] };
  for (const op of ordered) {
    if (plan.skipped[op.operationId]) {
      log(`skipped ${op.operationId}: ${plan.skipped[op.operationId]}`);
      continue;
    }
    await fz.replant();
    const started = Date.now();
    const count = plan.budgets[op.operationId] ?? plan.perOperation;
    const report = await fuzzOperation(fz, op, rng.fork(op.operationId), count, catalogue, plan.bodyLimit, summary.notes);
    await settle(fz);
    summary.sent += report.sent;
    summary.perOperation.set(op.operationId, report.sent);
    summary.findings.push(...report.findings);
    for (const [status, n] of report.statuses) summary.statuses.set(status, (summary.statuses.get(status) ?? 0) + n);
    const statuses = [...report.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}x${n}`).join(' ');
    log(`${op.operationId}: ${report.sent} requests in ${Date.now() - started} ms (${statuses})${report.findings.length ? `, ${report.findings.length} findings` : ''}`);
  }
  return summary;
}

/** The findings grouped by rule broken (with the operations and one example each), at most `limit` groups. */
export function formatFindings(findings: Finding[], limit = 30): string {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    for (const problem of f.problems) {
      const rule = problem.replace(f.operationId, '<op>');
      groups.set(rule, [...(groups.get(rule) ?? []), f]);
    }
  }
  const lines = [...groups].slice(0, limit).map(([rule, list]) => {
    const ops = [...new Set(list.map((f) => f.operationId))];
    const example = list[0]!;
    return `- ${rule}: ${list.length} answers, ${ops.length} operations (${ops.slice(0, 8).join(', ')}${ops.length > 8 ? ', ...' : ''})\n` +
      `    e.g. ${example.operationId} -> ${example.status}: ${example.request}\n    ${example.excerpt}`;
  });
  if (groups.size > limit) lines.push(`... and ${groups.size - limit} more rules`);
  return lines.join('\n');
}
