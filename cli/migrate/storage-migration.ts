import { isDeepStrictEqual } from 'node:util';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { DocumentStore, StorageProvider } from '../../kernel/contracts/storage.js';

/** What `migrateStore` copies, in this order (claims are not copied: they only live until their fire is over). */
export const MIGRATED_STORES = ['users', 'sessions', 'settings', 'tasks', 'credentials', 'executions'] as const;
export type MigratedStore = (typeof MIGRATED_STORES)[number];

/** The settings key of the target that records a migration into it, so a re-run resumes instead of refusing. */
export const MIGRATION_MARKER_KEY = 'storageMigration';

/**
 * What to do with a target that already holds users, sessions, tasks, credentials or executions (settings do
 * not count: a service started once on it has written some). A target an interrupted run from the same source
 * left behind is resumed whatever the policy; one a finished run filled is left alone unless `merge` or
 * `replace` is given (the service may have changed its records since).
 * - `refuse` (default): stop with a `MigrationError` naming what the target holds.
 * - `merge`: copy into it; a record with the same id is replaced, others are kept.
 * - `replace`: empty the target first (every user, session, task, credential, execution and setting).
 */
export type TargetPolicy = 'refuse' | 'merge' | 'replace';

export interface MigrationProgress {
  store: MigratedStore;
  done: number;
  total: number;
}

export interface MigrateStoreOptions {
  from: StorageProvider;
  to: StorageProvider;
  /** Names the source (e.g. `json:/srv/taskloom/data`): a later run with the same name resumes. */
  sourceId: string;
  target?: TargetPolicy;
  /** Executions are read and written this many at a time (default 500). */
  pageSize?: number;
  onProgress?(progress: MigrationProgress): void;
  /** Stops between pages; the run can be repeated to resume. */
  signal?: AbortSignal;
}

export interface MigrationReport {
  /**
   * `copied`: a first run; `resumed`: an interrupted run from this source finished; `already-done`: a finished
   * run from this source is in the target and nothing was copied (counts are then not verified).
   */
  outcome: 'copied' | 'resumed' | 'already-done';
  /** When the run that filled the target finished (`already-done`). */
  finishedAt?: string;
  counts: Record<MigratedStore, { source: number; target: number }>;
  /** The target held other data, kept (`merge`); its counts may then exceed the source's. */
  merged: boolean;
  durationMs: number;
}

/** A migration that cannot start or did not verify; the message says what to do. */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

interface Marker {
  sourceId: string;
  startedAt: string;
  finishedAt?: string;
  merged?: boolean;
}

type DocStoreName = 'users' | 'sessions' | 'tasks' | 'credentials';
const DOC_STORES: readonly DocStoreName[] = ['users', 'sessions', 'tasks', 'credentials'];

/**
 * Copies every record of `from` into `to` through the storage contract, then verifies the counts. Writes are
 * upserts by id (`put`, `set`, `insert`), so an interrupted run repeated later duplicates nothing.
 */
export async function migrateStore(options: MigrateStoreOptions): Promise<MigrationReport> {
  const { from, to, signal } = options;
  const startedMs = Date.now();
  const keysOf = from.settings.keys?.bind(from.settings);
  if (!keysOf) throw new MigrationError(`the ${from.kind} store cannot list its settings (settings.keys), so it cannot be migrated`);
  const progress = (store: MigratedStore, done: number, total: number) => options.onProgress?.({ store, done, total });

  const policy = options.target ?? 'refuse';
  const marker = await to.settings.get<Marker>(MIGRATION_MARKER_KEY);
  const sameSource = marker?.sourceId === options.sourceId;
  if (sameSource && marker?.finishedAt && policy === 'refuse') {
    const counts = await countBoth(from, to, (await keysOf()).filter((key) => key !== MIGRATION_MARKER_KEY));
    return { outcome: 'already-done', finishedAt: marker.finishedAt, counts, merged: marker.merged === true, durationMs: Date.now() - startedMs };
  }
  const held = await occupancy(to);
  let merged = sameSource && marker?.merged === true;
  if (policy === 'replace') {
    await emptyTarget(to);
    merged = false;
  } else if (policy === 'merge') {
    merged ||= held.length > 0;
  } else if (held.length > 0 && !sameSource) {
    throw new MigrationError(`the ${to.kind} target is not empty (${held.join(', ')}): use --merge to copy into it ` +
      '(records with the same id are replaced, others kept) or --force to empty it first');
  }
  const resumed = sameSource && policy !== 'replace';
  await to.settings.set<Marker>(MIGRATION_MARKER_KEY, { sourceId: options.sourceId, startedAt: new Date(startedMs).toISOString(), merged });

  for (const name of DOC_STORES) {
    const docs = await (from[name] as DocumentStore<{ id: string }>).list();
    for (const doc of docs) await (to[name] as DocumentStore<{ id: string }>).put(doc);
    progress(name, docs.length, docs.length);
    signal?.throwIfAborted();
  }
  // Each task's fingerprints and repairs (storage 2.4) go along when both sides keep them; they are not counted.
  if (from.healing && to.healing) for (const doc of await from.healing.list()) await to.healing.put(doc);
  // Named browser states (2.8), as sealed: they open wherever the session secret is the same (it is copied with the settings).
  if (from.browserStates && to.browserStates) for (const doc of await from.browserStates.list()) await to.browserStates.put(doc);
  const keys = (await keysOf()).filter((key) => key !== MIGRATION_MARKER_KEY);
  for (const key of keys) await to.settings.set(key, await from.settings.get(key));
  progress('settings', keys.length, keys.length);
  await copyExecutions(options, progress);

  const counts = await verify(from, to, keys, merged);
  await to.settings.set<Marker>(MIGRATION_MARKER_KEY, {
    sourceId: options.sourceId, startedAt: new Date(startedMs).toISOString(), finishedAt: new Date().toISOString(), merged,
  });
  return { outcome: resumed ? 'resumed' : 'copied', counts, merged, durationMs: Date.now() - startedMs };
}

/** Oldest page first, so records that share a `startedAt` keep their order in the target. */
async function copyExecutions(options: MigrateStoreOptions, progress: (store: MigratedStore, done: number, total: number) => void): Promise<void> {
  const { from, to, signal } = options;
  const pageSize = options.pageSize ?? 500;
  const total = await from.executions.count();
  let done = 0;
  progress('executions', 0, total);
  for (let end = total; end > 0; end -= pageSize) {
    signal?.throwIfAborted();
    const offset = Math.max(0, end - pageSize);
    const page = (await from.executions.list({ offset, limit: end - offset })).reverse();
    // In parallel across timestamps, in order within one (insertion order breaks ties in the history).
    const byStart = new Map<string, ExecutionRecord[]>();
    for (const record of page) byStart.set(record.startedAt, [...(byStart.get(record.startedAt) ?? []), record]);
    await Promise.all([...byStart.values()].map(async (records) => {
      for (const record of records) await to.executions.insert(record);
    }));
    done += page.length;
    progress('executions', done, total);
  }
}

/** What the target holds, as `2 users, 10 tasks`; empty when it holds nothing that counts. */
async function occupancy(store: StorageProvider): Promise<string[]> {
  const held: string[] = [];
  for (const name of DOC_STORES) {
    const count = await store[name].count();
    if (count > 0) held.push(`${count} ${name}`);
  }
  const executions = await store.executions.count();
  if (executions > 0) held.push(`${executions} executions`);
  return held;
}

async function emptyTarget(store: StorageProvider): Promise<void> {
  for (const name of DOC_STORES) {
    const docs = store[name] as DocumentStore<{ id: string }>;
    for (const doc of await docs.list()) await docs.delete(doc.id);
  }
  await store.executions.clear();
  if (!store.settings.keys) throw new MigrationError(`the ${store.kind} target cannot list its settings (settings.keys), so --force cannot empty it`);
  for (const key of await store.settings.keys()) await store.settings.delete(key);
}

/** Records in each store of both sides (settings: the source's keys, and every key of the target). */
async function countBoth(from: StorageProvider, to: StorageProvider, keys: string[]): Promise<MigrationReport['counts']> {
  const counts = {} as MigrationReport['counts'];
  for (const name of DOC_STORES) counts[name] = { source: await from[name].count(), target: await to[name].count() };
  const targetKeys = to.settings.keys ? (await to.settings.keys()).filter((key) => key !== MIGRATION_MARKER_KEY).length : keys.length;
  counts.settings = { source: keys.length, target: targetKeys };
  counts.executions = { source: await from.executions.count(), target: await to.executions.count() };
  return counts;
}

/**
 * Every source document and setting is in the target (settings with equal values), and the counts are equal;
 * a target merged into other data may hold more, never less. Settings of the target's own are allowed.
 */
async function verify(from: StorageProvider, to: StorageProvider, keys: string[], merged: boolean): Promise<MigrationReport['counts']> {
  const problems: string[] = [];
  for (const name of DOC_STORES) {
    const target = new Set((await (to[name] as DocumentStore<{ id: string }>).list()).map((doc) => doc.id));
    const missing = (await (from[name] as DocumentStore<{ id: string }>).list()).filter((doc) => !target.has(doc.id)).length;
    if (missing > 0) problems.push(`${missing} ${name} missing`);
  }
  const differing = [];
  for (const key of keys) {
    if (!isDeepStrictEqual(await to.settings.get(key), await from.settings.get(key))) differing.push(key);
  }
  if (differing.length > 0) problems.push(`settings differ: ${differing.join(', ')}`);
  const counts = await countBoth(from, to, keys);
  for (const name of MIGRATED_STORES) {
    const { source, target } = counts[name];
    if (target < source || (!merged && name !== 'settings' && target !== source)) problems.push(`${name}: ${source} in the source, ${target} in the target`);
  }
  if (problems.length > 0) throw new MigrationError(`verification failed: ${problems.join('; ')}`);
  return counts;
}
