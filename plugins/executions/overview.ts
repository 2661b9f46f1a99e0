import { EXECUTION_STATUSES, type ExecutionStatus, type ExecutionSummary } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { withOutcome } from '../../layers/outcomes/outcome-of.js';

/** The windows the overview counts, in hours: the last day and the last week. */
export const WINDOWS = [24, 168] as const;
/** Statuses that count as a failure in "recent failures". */
export const FAILED: ExecutionStatus[] = ['error', 'timeout', 'interrupted'];
const RECENT = 5;

export interface OverviewWindow { hours: number; total: number; byStatus: Record<ExecutionStatus, number> }
export interface Overview { at: string; windows: OverviewWindow[]; recentFailures: ExecutionSummary[] }

/**
 * What the dashboard's overview shows, from counts and two short reads: never the whole history, so it costs the
 * same at 100 runs as at 100,000 (a count per status and window; the newest few failures of each failed status).
 */
export async function overviewOf(store: ExecutionStore, now = Date.now()): Promise<Overview> {
  const windows = await Promise.all(WINDOWS.map(async (hours): Promise<OverviewWindow> => {
    const from = new Date(now - hours * 3_600_000).toISOString();
    const counts = await Promise.all(EXECUTION_STATUSES.map((status) => store.count({ status, from })));
    const byStatus = Object.fromEntries(EXECUTION_STATUSES.map((status, i) => [status, counts[i]!])) as Record<ExecutionStatus, number>;
    return { hours, total: counts.reduce((sum, n) => sum + n, 0), byStatus };
  }));
  const failures = (await Promise.all(FAILED.map((status) => store.summaries({ status, limit: RECENT })))).flat();
  failures.sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  return { at: new Date(now).toISOString(), windows, recentFailures: failures.slice(0, RECENT).map(withOutcome) };
}
