import type { Action, Task } from '../../api/types';
import { editableFields } from './task-draft';

/** A task field whose value differs between two versions, each side as text ('' when absent). */
export interface FieldChange { field: string; left: string; right: string }

/** One line of the side-by-side action list: kept, changed in place, only on the left, or only on the right. */
export interface ActionRow { kind: 'same' | 'changed' | 'removed' | 'added'; left?: Action; right?: Action }

const text = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The editable fields (actions aside) that differ, in the order they first appear. */
export function fieldChanges(left: Task, right: Task): FieldChange[] {
  const a = editableFields(left);
  const b = editableFields(right);
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => f !== 'actions');
  return fields.flatMap((field) => (text(a[field]) === text(b[field]) ? [] : [{ field, left: text(a[field]), right: text(b[field]) }]));
}

/** An action as compared: its canvas id is bookkeeping, not content. */
const content = (action: Action): string => {
  const { id: _id, ...rest } = action;
  return JSON.stringify(rest, Object.keys(rest).sort());
};

/**
 * The two action lists aligned by their longest common subsequence (a classic line diff); a removal next to an
 * addition reads as one changed action. Lists are at most 1,000 actions, so the quadratic table is fine.
 */
export function actionRows(left: Action[], right: Action[]): ActionRow[] {
  const a = left.map(content);
  const b = right.map(content);
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const rows: ActionRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) rows.push({ kind: 'same', left: left[i++], right: right[j++] });
    else if (i < a.length && j < b.length && lcs[i + 1]![j] === lcs[i]![j + 1]) rows.push({ kind: 'changed', left: left[i++], right: right[j++] });
    else if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) rows.push({ kind: 'removed', left: left[i++] });
    else rows.push({ kind: 'added', right: right[j++] });
  }
  return rows;
}
