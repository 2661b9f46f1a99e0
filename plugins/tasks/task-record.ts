import crypto from 'node:crypto';
import { Errors } from '../../kernel/errors.js';
import { MAX_VERSIONS, type TaskListEntry, type TaskRecord, type TaskSnapshot, type TaskVersion } from '../../kernel/contracts/records.js';
import type { TaskInput } from './schemas.js';

// Pure helpers on task records: no storage, no HTTP.

export { MAX_VERSIONS, type TaskListEntry };

/** Top-level fields a client may send back but never sets. */
export const SERVER_FIELDS = ['id', 'versions', 'createdAt', 'updatedAt'];

/** A task without its history. */
export type TaskSummary = TaskSnapshot;
/** A task as answered: the history is always there, possibly empty. */
export type FullTask = TaskRecord & { versions: TaskVersion[] };

export const randomId = (prefix: string) => prefix + crypto.randomBytes(12).toString('base64url');
export const now = () => new Date().toISOString();

/** The task without its history. */
export function withoutVersions(task: TaskRecord): TaskSummary {
  const { versions: _versions, ...rest } = task;
  return rest;
}

/** Placeholders such as `{$host}` make a URL checkable only at run time. */
export function checkTaskUrl(url: string): void {
  if (url.includes('{$')) return;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw Errors.VALIDATION_ERROR({ message: 'url must be an absolute http or https URL' });
  }
}

/** The configuration a body sets: no server fields, no absent values. */
export function configOf(body: TaskInput): Omit<TaskInput, 'id' | 'versions' | 'createdAt' | 'updatedAt'> {
  const { id: _id, versions: _versions, createdAt: _createdAt, updatedAt: _updatedAt, ...config } = body;
  for (const key of Object.keys(config) as (keyof typeof config)[]) {
    if (config[key] === undefined) delete config[key];
  }
  return config;
}

/** The history with `current` (as it is now) pushed on top, newest first, capped. */
export function historyWith(current: TaskRecord, savedAt: string): TaskVersion[] {
  const entry: TaskVersion = { id: randomId('ver_'), savedAt, snapshot: withoutVersions(current) };
  return [entry, ...(current.versions ?? [])].slice(0, MAX_VERSIONS);
}

/** Object keys in one order at every depth, so that key order never makes two tasks differ. */
export const sortedKeys = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * Whether two tasks are configured alike: server fields (id, versions, createdAt, updatedAt) and
 * key order do not count, absent and undefined are the same. A save that changes nothing keeps the
 * stored task as it is: no version, same updatedAt.
 */
export function sameConfig(a: TaskRecord, b: TaskRecord): boolean {
  const text = (task: TaskRecord) =>
    JSON.stringify(Object.fromEntries(Object.entries(task).filter(([key]) => !SERVER_FIELDS.includes(key))), sortedKeys);
  return text(a) === text(b);
}

/** Removes an empty description so that "present only when set" holds. */
export function tidy(task: TaskRecord): TaskRecord {
  if (task.description === '') delete task.description;
  return task;
}
