import type { Action, Task } from '../../api/types';

/** A recording on its way from the studio to the editor (sessionStorage: it survives the navigation, not the tab). */
export interface Handoff {
  /** The task it was recorded for; undefined: a new task. */
  taskId?: string;
  url: string;
  actions: Action[];
  variables: Record<string, string>;
  /** The studio session it was recorded in, left open: the editor stores its elements' fingerprints once saved. */
  sessionId?: string;
}

const KEY = 'taskloom.recording';

export function handOff(recording: Handoff): void {
  sessionStorage.setItem(KEY, JSON.stringify(recording));
}

/**
 * The recording waiting for this editor (`taskId` undefined: a new task), taken once, applied to `draft`: its
 * actions replace the draft's, its variables are added (empty values kept as they are: the person fills them in).
 * With it, the studio session it came from.
 */
export function takeRecording(taskId: string | undefined, draft: Task): { task: Task; sessionId?: string } | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return undefined;
  const recording = JSON.parse(raw) as Handoff;
  if (recording.taskId !== taskId) return undefined;
  sessionStorage.removeItem(KEY);
  const task = {
    ...draft,
    ...(taskId ? {} : { name: draft.name || 'Recorded task', url: recording.url }),
    actions: recording.actions.map((action) => ({ ...action, id: crypto.randomUUID() })),
    variables: { ...recording.variables, ...(draft.variables ?? {}) },
  };
  return { task, ...(recording.sessionId ? { sessionId: recording.sessionId } : {}) };
}
