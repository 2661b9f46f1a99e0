import type { Task } from '../../api/types';
import { newActionId } from './action-types';

export const blankTask = (): Task => ({ name: '', url: 'https://', mode: 'agent', actions: [] });

/** Every action gets a stable id, so the canvas can key, move and focus it. */
export function withActionIds(task: Task): Task {
  return { ...task, actions: (task.actions ?? []).map((a) => (a.id ? a : { ...a, id: newActionId() })) };
}

const SERVER_KEPT = ['id', 'versions', 'createdAt', 'updatedAt', 'schedule'];

/** The fields the editor owns (the schedule is saved through its own endpoint). */
export function editableFields(task: Task): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(task)) {
    if (SERVER_KEPT.includes(key) || value === undefined) continue;
    if (key === 'description' && value === '') continue;
    out[key] = value;
  }
  return out;
}

/** A PATCH body: the editable fields, and null for each optional one the draft dropped. */
export function patchBody(saved: Task, draft: Task): Record<string, unknown> {
  const body = editableFields(draft);
  for (const key of Object.keys(editableFields(saved))) if (!(key in body)) body[key] = null;
  return body;
}

/** What a user would have to fix before the server is asked. */
export function problems(task: Task): string[] {
  const list: string[] = [];
  if (!task.name.trim()) list.push('Give the task a name.');
  if (!/^https?:\/\/./i.test(task.url.trim())) list.push('The URL must start with http:// or https://.');
  if (task.output && (task.output.tableId === '' || task.output.tableId === undefined)) list.push('Choose a table for the output, or remove it.');
  return list;
}

export const fingerprint = (task: Task) => JSON.stringify(editableFields(task));
