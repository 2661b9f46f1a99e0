import type { ExecutionQuery } from '../../kernel/contracts/storage.js';
import type { ExecutionRecord, ExecutionSummary } from '../../kernel/contracts/records.js';
import { Errors } from '../../kernel/errors.js';
import type { KernelServices } from '../../kernel/services.js';
import type { Captures } from '../data/index.js';

export type ExecutionService = ReturnType<typeof createExecutionService>;

/** Execution history without HTTP: reading, deleting (with the capture files) and start-up recovery. */
export function createExecutionService(services: KernelServices, captures: Captures) {
  const store = services.storage.executions;
  const log = services.logger.child({ plugin: 'executions' });

  return {
    list(query: ExecutionQuery): Promise<ExecutionRecord[]> {
      return store.list(query);
    },

    summaries(query: ExecutionQuery): Promise<ExecutionSummary[]> {
      return store.summaries(query);
    },

    async get(id: string): Promise<ExecutionRecord> {
      const record = await store.get(id);
      if (!record) throw Errors.EXECUTION_NOT_FOUND({ id });
      return record;
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

    /** Runs this process did not finish can never finish: they become `interrupted`. */
    async recover(): Promise<number> {
      const changed = await store.markAll(['queued', 'running'], 'interrupted', new Date().toISOString());
      if (changed > 0) log.warn({ interrupted: changed }, 'executions left queued or running by an earlier stop are now interrupted');
      else log.info({ interrupted: 0 }, 'no execution was left queued or running');
      return changed;
    },
  };
}
