import type { Logger } from '../../kernel/contracts/logger.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { TaskStore } from '../../kernel/contracts/storage.js';

/** What an import writes: new tasks, and tasks replacing stored ones (kept here to put back). */
export interface ImportPlan {
  create: TaskRecord[];
  replace: Array<{ next: TaskRecord; previous: TaskRecord }>;
}

/**
 * Writes the plan all or nothing. A store with `putAll` writes it as one (a transaction, one journal line, a
 * committed batch), so even a crash mid-import keeps all or none. Otherwise each write records its undo first
 * (deleting a task never written, or putting back one not yet replaced, is harmless); when a write fails, the
 * undo steps run newest first and the write's error is rethrown: all or nothing while the process lives.
 */
export async function applyImport(store: TaskStore, plan: ImportPlan, log: Logger): Promise<void> {
  if (store.putAll) {
    await store.putAll([...plan.create, ...plan.replace.map(({ next }) => next)]);
    return;
  }
  const undo: Array<{ id: string; run: () => Promise<unknown> }> = [];
  try {
    for (const task of plan.create) {
      undo.push({ id: task.id, run: () => store.delete(task.id) });
      await store.put(task);
    }
    for (const { next, previous } of plan.replace) {
      undo.push({ id: next.id, run: () => store.put(previous) });
      await store.put(next);
    }
  } catch (error) {
    log.error({ err: error, written: undo.length }, 'task import failed mid-way: undoing the writes already made');
    for (const step of undo.reverse()) {
      try {
        await step.run();
      } catch (undoError) {
        log.error({ err: undoError, taskId: step.id }, 'undoing an imported task failed: check this task by hand');
      }
    }
    throw error;
  }
}
