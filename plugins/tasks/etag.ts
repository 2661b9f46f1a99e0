import crypto from 'node:crypto';
import { Errors } from '../../kernel/errors.js';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import { sortedKeys, withoutVersions } from './task-record.js';

/**
 * A task's entity tag: a hash of the stored task without its history (every change, `touch` included, moves
 * `updatedAt`, so two states never share one). Key order does not count, so every storage gives the same tag.
 */
export function taskEtag(task: TaskRecord): string {
  const text = JSON.stringify(withoutVersions(task), sortedKeys);
  return `"${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** The tags of an `If-Match` header (`W/` ignored: weak comparison is enough for a JSON document); undefined when absent. */
export function parseIfMatch(header: string | string[] | undefined): string[] | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(',').map((tag) => tag.trim().replace(/^W\//, '')).filter((tag) => tag !== '');
}

/**
 * Throws 412 TASK_CHANGED when `ifMatch` (parsed) names none of the task's tags; `current` undefined: the task
 * does not exist, which no tag (not even `*`) matches. No `ifMatch`: writes go through, as before.
 */
export function checkIfMatch(id: string, ifMatch: string[] | undefined, current: TaskRecord | undefined): void {
  if (!ifMatch) return;
  const tag = current && taskEtag(current);
  if (tag && (ifMatch.includes('*') || ifMatch.includes(tag))) return;
  throw Errors.TASK_CHANGED({ id, sent: ifMatch.join(', '), current: tag ?? 'none (the task no longer exists)' });
}
