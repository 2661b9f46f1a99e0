import type { ExecutionQuery } from '../../kernel/contracts/storage.js';
import type { ExecutionRecord, ExecutionSummary } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { withoutOwner } from '../../layers/execution-view/answered-execution.js';
import { withOutcome } from '../../layers/outcomes/outcome-of.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/decorators.js';
import { overviewOf } from './overview.js';
import { openResult, type OpenedResult } from '../../layers/stored-results/read-result.js';
import { removeResults } from '../../layers/stored-results/remove-results.js';

const UNFINISHED = new Set(['queued', 'running']);

export type ExecutionService = ReturnType<typeof createExecutionService>;


/** Execution history without HTTP: reading and deleting (with the capture files). Recovery: recovery.ts. */
export function createExecutionService(services: KernelServices, captures: Captures) {
  const store = services.storage.executions;
  const log = services.logger.child({ plugin: 'executions' });

  return {
    async list(query: ExecutionQuery): Promise<ExecutionRecord[]> {
      return (await store.list(query)).map(withoutOwner);
    },

    async summaries(query: ExecutionQuery): Promise<ExecutionSummary[]> {
      return (await store.summaries(query)).map(withOutcome);
    },

    count(filter: Omit<ExecutionQuery, 'limit' | 'offset'>): Promise<number> {
      return store.count(filter);
    },

    overview: () => overviewOf(store),

    async get(id: string): Promise<ExecutionRecord> {
      const record = await store.get(id);
      if (!record) throw Errors.EXECUTION_NOT_FOUND({ id });
      return withoutOwner(record);
    },

    /**
     * The whole result (README "Large results"): the blob it is stored apart in, or the record's own. A run not
     * ended yet has none (RESULT_NOT_FOUND).
     */
    async result(id: string): Promise<OpenedResult> {
      const record = await this.get(id);
      if (UNFINISHED.has(record.status)) throw Errors.RESULT_NOT_FOUND({ id, reason: `yet (it is ${record.status})` });
      return openResult(services.blob, record);
    },

    /** The record, then its capture files and stored-apart result (a crash in between leaves them to the sweeps). */
    async remove(id: string): Promise<void> {
      if (!(await store.delete(id))) throw Errors.EXECUTION_NOT_FOUND({ id });
      const files = await captures.removeForExecution(id);
      const results = await removeResults(services.blob, [id]);
      log.info({ executionId: id, captures: files, results }, 'execution deleted');
    },

    /** Every record, and the capture files and stored-apart results of those records. */
    async clear(): Promise<void> {
      const ids = (await store.summaries()).map((s) => s.executionId);
      const records = await store.clear();
      const files = await captures.removeForExecutions(ids);
      const results = await removeResults(services.blob, ids);
      log.info({ records, captures: files, results }, 'execution history cleared');
    },
  };
}
