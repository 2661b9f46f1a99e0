import type { Logger } from './contracts/logger.js';

/** Execution records removed in bulk, as announced to `ExecutionRemoval` listeners. */
export interface RemovedExecutions {
  executionIds: string[];
  /**
   * Set by retention: every execution started before this ISO time is gone, so files older than it may go
   * too, even those of records another instance on the same database removed.
   */
  startedBefore?: string;
}

/**
 * What else goes when execution records are removed in bulk (`services.executionRemoval`): the data plugin
 * deletes their capture files when a plugin that prunes the history (retention) announces what it removed,
 * without either importing the other.
 */
export interface ExecutionRemoval {
  /** Adds work to do for removed executions. */
  onRemoved(listener: (removed: RemovedExecutions) => Promise<unknown>): void;
  /** Runs every listener and waits for all; a failing listener is logged, never thrown. */
  removed(removed: RemovedExecutions): Promise<void>;
}

export function createExecutionRemoval(logger: Logger): ExecutionRemoval {
  const listeners: Array<(removed: RemovedExecutions) => Promise<unknown>> = [];
  return {
    onRemoved(listener) {
      listeners.push(listener);
    },
    async removed(removed) {
      const results = await Promise.allSettled(listeners.map((listener) => listener(removed)));
      for (const result of results) {
        if (result.status === 'rejected') logger.error({ err: result.reason }, 'cleaning up after removed executions failed');
      }
    },
  };
}
