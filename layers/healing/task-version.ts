// A repair saved as a task version: the task as it was goes into its history (as every change through the API
// does), and the action's selector is replaced. Used when a person accepts a proposed repair and by `apply`.
import crypto from 'node:crypto';
import { MAX_VERSIONS, type TaskRecord } from '../../kernel/contracts/records.js';
import type { TaskStore } from '../../kernel/contracts/storage.js';

export type SelectorChange = { taskVersion: string } | { refused: string };

/**
 * Replaces action `actionIndex`'s selector `oldSelector` by `newSelector`, snapshotting the task first. Refused (nothing
 * written) when the task is gone or its action no longer has `oldSelector` (the task was edited meanwhile).
 */
export async function saveSelectorVersion(store: TaskStore, taskId: string, actionIndex: number, oldSelector: string, newSelector: string): Promise<SelectorChange> {
  let refused = 'the task no longer exists';
  const at = new Date().toISOString();
  const saved = await store.update(taskId, (current) => {
    const action = current.actions[actionIndex];
    if (action?.selector !== oldSelector) {
      refused = `action ${actionIndex + 1} no longer has the selector ${oldSelector}: the task changed since`;
      return undefined;
    }
    const { versions, ...snapshot } = current;
    const next: TaskRecord = {
      ...current,
      actions: current.actions.map((a, i) => (i === actionIndex ? { ...a, selector: newSelector } : a)),
      updatedAt: at,
      versions: [{ id: `ver_${crypto.randomBytes(12).toString('base64url')}`, savedAt: at, snapshot }, ...(versions ?? [])].slice(0, MAX_VERSIONS),
    };
    return next;
  });
  return saved && saved.updatedAt === at ? { taskVersion: saved.updatedAt } : { refused };
}
