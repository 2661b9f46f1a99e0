import type { ExecutionLogLine, ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';

/**
 * Sending a run back to the queue: the record's side, shared by the runs plugin (a run that ended here, a job given
 * back by a dead worker) and the executions plugin's sweep (runs of instances that stopped). Pure functions.
 */

/** The job id of the record's current turn in the queue: the execution id, then `<executionId>-<n>` after n requeues. */
export function jobIdOf(record: Pick<ExecutionRecord, 'executionId' | 'queueing'>): string {
  const requeues = record.queueing?.requeues ?? 0;
  return requeues === 0 ? record.executionId : `${record.executionId}-${requeues}`;
}

/** The retry a run ending `status` gets from its task's `retries` (the next attempt and its wait); undefined: none. */
export function retryOf(record: ExecutionRecord, status: ExecutionStatus): { attempt: number; delayMs: number } | undefined {
  const retries = record.queueing?.retries;
  if (!retries || !(retries.on ?? ['interrupted']).includes(status as 'interrupted')) return undefined;
  const attempt = (record.attempt ?? 1) + 1;
  return attempt <= retries.max + 1 ? { attempt, delayMs: retries.delayMs ?? 0 } : undefined;
}

export interface Requeue {
  /** Why, for the run's log (a warning line). */
  message: string;
  delayMs: number;
  nowMs: number;
  /** The next attempt (a retry); absent: the same attempt again (a busy browser grid). */
  attempt?: number;
  /** The instance that keeps it (in-process queue); absent: nobody's until a worker takes it (shared queue). */
  owner?: string;
  /** The run's log so far (the worker's own lines); default: the record's. */
  logs?: ExecutionLogLine[];
  /** Run again through another proxy after a bot wall: counted in `queueing.proxyRetries`. */
  proxyRetry?: boolean;
  /** The grid-busy count and since when (a busy grid), cleared otherwise. */
  busy?: { count: number; since: string };
}

/** The record `queued` again under its next job id, its claim and owner released. */
export function requeuedRecord(record: ExecutionRecord, requeue: Requeue): ExecutionRecord {
  const { runToken: _claim, instanceId: _owner, finishedAt: _end, ...rest } = record;
  const { busy: _busy, busySince: _since, notBefore: _after, ...queueing } = record.queueing ?? { job: {} };
  const at = new Date(requeue.nowMs).toISOString();
  return {
    ...rest,
    status: 'queued',
    durationMs: 0,
    ...(requeue.attempt === undefined ? {} : { attempt: requeue.attempt }),
    ...(requeue.owner === undefined ? {} : { instanceId: requeue.owner }),
    logs: [...(requeue.logs ?? record.logs), { at, level: 'warn', message: requeue.message }],
    queueing: {
      ...queueing,
      requeues: (queueing.requeues ?? 0) + 1,
      ...(requeue.proxyRetry ? { proxyRetries: (queueing.proxyRetries ?? 0) + 1 } : {}),
      ...(requeue.busy ? { busy: requeue.busy.count, busySince: requeue.busy.since } : {}),
      ...(requeue.delayMs > 0 ? { notBefore: new Date(requeue.nowMs + requeue.delayMs).toISOString() } : {}),
    },
  };
}

/** A dead instance's `running` run whose task asked for retries on `interrupted`: the record back in the queue. */
export function requeuedAfterDeath(record: ExecutionRecord, nowMs: number): ExecutionRecord | undefined {
  const retry = record.status === 'running' ? retryOf(record, 'interrupted') : undefined;
  if (!retry) return undefined;
  const max = record.queueing!.retries!.max;
  return requeuedRecord(record, {
    nowMs, attempt: retry.attempt, delayMs: retry.delayMs,
    message: `the instance running it stopped: retrying (attempt ${retry.attempt} of ${max + 1})${retry.delayMs > 0 ? ` in ${Math.round(retry.delayMs / 1000)} s` : ''}`,
  });
}
