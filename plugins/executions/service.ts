import type { ExecutionQuery } from '../../kernel/contracts/storage.js';
import type { ExecutionRecord, ExecutionSummary } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import { withoutOwner } from '../../layers/execution-view/answered-execution.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/decorators.js';
import { overviewOf } from './overview.js';

export type ExecutionService = ReturnType<typeof createExecutionService>;


/** Execution history without HTTP: reading and deleting (with the capture files). Recovery: recovery.ts. */
export function createExecutionService(services: KernelServices, captures: Captures) {
  const store = services.storage.executions;
  const log = services.logger.child({ plugin: 'executions' });

  return {
    async list(query: ExecutionQuery): Promise<ExecutionRecord[]> {
      return (await store.list(query)).map(withoutOwner);
    },

    summaries(query: ExecutionQuery): Promise<ExecutionSummary[]> {
      return store.summaries(query);
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

    async remove(id: string): Promise<void> {
      if (!(await store.delete(id))) throw Errors.EXECUTION_NOT_FOUND({ id });
      const files = await captures.removeForExecution(id);
      log.info({ executionId: id, captures: files }, 'execution deleted');
    },

    /** Every record, and the capture files of those records. */
    async clear(): Promise<void> {
      const ids = (await store.summaries()).map((s) => s.executionId);
      const records = await store.clear();
      const files = await captures.removeForExecutions(ids);
      log.info({ records, captures: files }, 'execution history cleared');
    },
  };
}
