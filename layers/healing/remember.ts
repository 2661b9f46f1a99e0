import type { DocumentStore } from '../../kernel/contracts/storage.js';
import type { ElementFingerprint, TaskHealingRecord } from './records.js';

/**
 * Keeps `fingerprint` as the element of action `actionIndex` when it has `selector` (a selector generated or picked
 * for a saved task): it replaces the action's earlier one. Keyed by the selector too, so a draft that is never saved
 * with it changes nothing a run reads.
 */
export async function rememberFingerprint(
  store: DocumentStore<TaskHealingRecord>, taskId: string, actionIndex: number, selector: string, fingerprint: ElementFingerprint,
): Promise<void> {
  const now = new Date().toISOString();
  const entry = { actionIndex, selector, fingerprint, taskVersion: '', savedAt: now };
  const edit = (current: TaskHealingRecord): TaskHealingRecord => ({
    ...current,
    fingerprints: [...current.fingerprints.filter((f) => f.actionIndex !== actionIndex), entry].sort((a, b) => a.actionIndex - b.actionIndex),
  });
  if (!(await store.update(taskId, edit))) await store.put(edit({ id: taskId, fingerprints: [], repairs: [] }));
}
