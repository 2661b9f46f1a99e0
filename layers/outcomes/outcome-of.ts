import { EXECUTION_OUTCOMES, type ExecutionOutcome, type ExecutionRecord } from '../../kernel/contracts/records.js';

const KNOWN = new Set<string>(EXECUTION_OUTCOMES);

/**
 * A record's outcome as answered: the stored one, or for a record written before outcomes existed its status when
 * that is an outcome too (the five finished statuses); undefined while queued or running.
 */
export function outcomeOf(record: Pick<ExecutionRecord, 'status' | 'outcome'>): ExecutionOutcome | undefined {
  if (typeof record.outcome === 'string') return record.outcome;
  return KNOWN.has(record.status) ? record.status as ExecutionOutcome : undefined;
}

/** `record` (a full record or a summary) with its outcome filled in from its status when it has none. */
export function withOutcome<T extends Pick<ExecutionRecord, 'status' | 'outcome'>>(record: T): T {
  if (record.outcome !== undefined) return record;
  const outcome = outcomeOf(record);
  return outcome === undefined ? record : { ...record, outcome };
}
