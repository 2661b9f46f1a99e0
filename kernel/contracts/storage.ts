import type { DeliveryStore } from './deliveries.js';
import type { BrowserStateRecord, CredentialRecord, ExecutionOutcome, ExecutionRecord, ExecutionStatus, ExecutionSummary, ExecutionTrigger, SessionRecord, TaskRecord, UserRecord } from './records.js';

/**
 * The storage contract's version (`major.minor`, see provider.ts). 2.0: `ExecutionStore.markAll` takes an owner
 * filter and `deleteStartedBefore` exists (many instances, retention). 2.1: the optional `counters`. 2.2: the optional `clock`.
 * 2.3: `ExecutionQuery.trigger`. 2.4: the optional `healing` store. 2.5: the optional `deliveries` (webhook deliveries,
 * contract in deliveries.ts). 2.6: `ExecutionQuery.outcome`. 2.7: `ExecutionQuery.changed`.
 * 2.8: the optional `browserStates` (named browser states).
 */
export const STORAGE_CONTRACT_VERSION = '2.8';
/** The oldest version a storage provider may be built for and still be accepted. */
export const STORAGE_CONTRACT_ACCEPTS = '2.0';

/**
 * A keyed set of documents. Every method resolves only after the change is durable:
 * an acknowledged write survives a crash (kill -9, power loss on a disk that honours fsync).
 * Writes to one store are serialized, so concurrent `update` calls never lose a change.
 * Returned documents are copies: mutating them changes nothing stored.
 */
export interface DocumentStore<T extends { id: string }> {
  get(id: string): Promise<T | undefined>;
  /** Every document, in insertion order. */
  list(): Promise<T[]>;
  /** Inserts or replaces the document with `doc.id`. */
  put(doc: T): Promise<T>;
  /**
   * Atomically reads, changes and writes one document. `change` receives a copy of the current
   * document and returns the new one; returning `undefined` leaves it unchanged.
   * Resolves to the stored document, or `undefined` when `id` does not exist.
   */
  update(id: string, change: (current: T) => T | undefined): Promise<T | undefined>;
  /** Resolves to `true` when a document was removed. */
  delete(id: string): Promise<boolean>;
  count(): Promise<number>;
  /**
   * Optional: a value that changes whenever any document of the store changes (including changes made
   * before a restart), so callers may cache what they derive from `list()` while it stays the same.
   * Resolves only after earlier writes are durable. Providers that cannot tell cheaply leave it out.
   */
  revision?(): Promise<string>;
}

export interface UserStore extends DocumentStore<UserRecord> {
  /** Case-insensitive match on email. */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /**
   * Inserts `user` only when no user exists yet; resolves to `false` (and stores nothing) otherwise.
   * This is how the first-admin setup stays single even under concurrent requests.
   */
  insertFirst(user: UserRecord): Promise<boolean>;
}

export interface SessionStore extends DocumentStore<SessionRecord> {
  /** Removes sessions whose `expiresAtMs` is before `nowMs`; resolves to how many were removed. */
  deleteExpired(nowMs: number): Promise<number>;
}

/** Named JSON values: service settings, secrets the service generated, proxy settings and so on. */
export interface SettingsStore {
  get<V = unknown>(key: string): Promise<V | undefined>;
  set<V>(key: string, value: V): Promise<void>;
  /** Atomic read-modify-write of one key; `change` receives `undefined` when the key is unset. */
  update<V>(key: string, change: (current: V | undefined) => V): Promise<V>;
  delete(key: string): Promise<boolean>;
  /**
   * Optional: every key that holds a value, in no particular order. `taskloom migrate` needs it on the store
   * it copies from (settings are named by the plugins that own them, so nothing else can enumerate them).
   */
  keys?(): Promise<string[]>;
}

export interface TaskStore extends DocumentStore<TaskRecord> {
  /**
   * Optional: inserts or replaces every task of `tasks` as one write (an import). After a crash at any moment,
   * either all of them are stored or none of this call's changes are; a failure rejects with nothing written.
   * An id given twice takes the later document, at the place of the first. Resolves once durable. Providers
   * that cannot write atomically leave it out (callers then write one by one).
   */
  putAll?(tasks: TaskRecord[]): Promise<void>;
}

export interface ExecutionQuery {
  /** At most this many, newest `startedAt` first. */
  limit?: number;
  /** Skip this many of the newest matches (paging). */
  offset?: number;
  status?: ExecutionStatus;
  taskId?: string;
  /** Only runs started this way (contract 2.3). */
  trigger?: ExecutionTrigger;
  /**
   * Only runs that ended this way (contract 2.6): their `outcome`, or for a record without one (written before
   * outcomes existed) its `status` when that is the same word (`success`, `error`, ...).
   */
  outcome?: ExecutionOutcome;
  /** Only runs compared with an earlier one (contract 2.7) whose `changed` is this; a record without `changed` matches neither. */
  changed?: boolean;
  /** ISO timestamps bounding `startedAt` (inclusive). */
  from?: string;
  to?: string;
}

/** Which records `ExecutionStore.markAll` changes, beyond their status. */
export interface ExecutionMarkFilter {
  /**
   * Only records owned by this instance (their `instanceId`); `null`: only records that name no instance.
   * Absent: any owner.
   */
  instanceId?: string | null;
}

/**
 * Execution history. Built for a history of 100,000 records and more: inserting or updating one
 * record costs the same whatever the history holds (no whole-history rewrite).
 */
export interface ExecutionStore {
  insert(record: ExecutionRecord): Promise<ExecutionRecord>;
  /** Atomic read-modify-write; resolves to `undefined` when the id does not exist. */
  update(
    executionId: string,
    change: (current: ExecutionRecord) => ExecutionRecord | undefined,
  ): Promise<ExecutionRecord | undefined>;
  get(executionId: string): Promise<ExecutionRecord | undefined>;
  /** Full records, newest first. */
  list(query?: ExecutionQuery): Promise<ExecutionRecord[]>;
  /** Summaries only (no logs or result), newest first. */
  summaries(query?: ExecutionQuery): Promise<ExecutionSummary[]>;
  count(query?: Omit<ExecutionQuery, 'limit' | 'offset'>): Promise<number>;
  delete(executionId: string): Promise<boolean>;
  /** Removes every record; resolves to how many were removed. */
  clear(): Promise<number>;
  /**
   * Sets every record whose status is one of `from`, and that `filter` selects, to `to` with `finishedAt`
   * (recovery turns the `queued` and `running` runs of a stopped instance into `interrupted`). Each record
   * changes atomically: one that left `from` meanwhile stays as it is. Resolves to how many changed.
   */
  markAll(from: ExecutionStatus[], to: ExecutionStatus, finishedAt: string, filter?: ExecutionMarkFilter): Promise<number>;
  /**
   * Removes every record whose `startedAt` is before `cutoffIso` (an ISO timestamp; a record whose
   * `startedAt` is not a date counts as 1970). Resolves to the removed ids, in no particular order.
   * Costs about the number removed, not the size of the history. Throws a TypeError for a cutoff that is
   * not a timestamp. Used by retention, which then deletes the records' capture files.
   */
  deleteStartedBefore(cutoffIso: string): Promise<string[]>;
}

export type CredentialStore = DocumentStore<CredentialRecord>;
/** A task's healing state, keyed by task id (its shape is the healing layer's: the store keeps it as given). */
export type HealingDocument = { id: string } & Record<string, unknown>;

/**
 * Once-only claims shared by every instance on the same storage, e.g. "run task T for the fire at
 * 09:00". The first caller of a key wins; later callers see `false`.
 */
export interface ClaimStore {
  /** Resolves to `true` for exactly one caller of `key`, until the claim expires. */
  claim(key: string, owner: string, ttlMs: number): Promise<boolean>;
}

/** What `CounterStore.add` did. */
export interface CounterState {
  /** False when `limit` refused the add (nothing changed). */
  added: boolean;
  /** The count after the call (0 for a key that is unset or expired). */
  count: number;
  /** Milliseconds until the count expires (0 for a key that is unset or expired). */
  resetInMs: number;
}

/**
 * Counts that expire, shared by every instance on the same storage (the login limits count failures here, so
 * instances count together). Each count lives in a fixed window that starts with the first add to an unset or
 * expired key. Counts need not survive a restart: a provider that serves one process (json) may keep them in memory.
 */
export interface CounterStore {
  /**
   * Adds `delta` (an integer; negative takes back) to the count of `key` atomically, across instances. An unset or
   * expired key counts from 0 in a new window of `windowMs`, which later adds do not move; a negative delta never
   * opens a window nor takes a count below 0. With `limit`, an add that would take the count above it changes
   * nothing (`added: false`). Expiry follows the storage's clock where it has one (every instance then agrees).
   * Throws a TypeError for a delta that is not an integer or a windowMs that is not positive.
   */
  add(key: string, delta: number, options: { windowMs: number; limit?: number }): Promise<CounterState>;
  /** Removes the count of `key`; resolves to true when it held one that had not expired. */
  reset(key: string): Promise<boolean>;
}

/** The storage capability. */
export interface StorageProvider {
  /** Backend name reported by the health endpoint: `json`, `postgres`, `mongodb`, ... */
  readonly kind: string;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly settings: SettingsStore;
  readonly tasks: TaskStore;
  readonly executions: ExecutionStore;
  readonly credentials: CredentialStore;
  readonly claims: ClaimStore;
  /** Optional (2.1): expiring counters shared by the instances. Without it, a plugin counts in its own process. */
  readonly counters?: CounterStore;
  /**
   * Optional (2.5): the webhook delivery log, shared by the instances. Without it the webhooks plugin keeps its
   * deliveries in memory (they do not survive a restart) and says so at start.
   */
  readonly deliveries?: DeliveryStore;
  /**
   * Optional (2.2): the storage's current time, epoch ms (PostgreSQL's clock). Every instance sharing the storage
   * reads the same clock, so instance leases judged on it agree whatever the hosts' clocks say. Rejects as any
   * call does while the storage is unreachable. Without it each instance uses its own clock.
   */
  clock?(): Promise<number>;
  /**
   * Optional (2.4): each task's healing state (its elements' fingerprints and selector repairs), keyed by task id.
   * Without it runs neither fingerprint nor repair (they fail as before).
   */
  readonly healing?: DocumentStore<HealingDocument>;
  /**
   * Optional (2.8): named browser states, keyed by name; the store keeps `sealed` as given (the caller sealed it).
   * Without it the browser-states endpoints answer 503 and a run asking for a state fails.
   */
  readonly browserStates?: DocumentStore<BrowserStateRecord>;
  /** Resolves when the backend is reachable and usable; rejects with the reason otherwise. */
  check(): Promise<void>;
  /** Flushes pending writes and releases files and connections. Idempotent. */
  close(): Promise<void>;
  /**
   * Optional: rewrites the files of these stores so that no overwritten or deleted value is left in them (an
   * append-only journal keeps old lines until it is compacted). Called after secrets were sealed or sealed again,
   * so the plain or old-key copies are gone. Providers whose files hold no superseded copies leave it out.
   */
  compact?(stores: readonly ('settings' | 'credentials')[]): Promise<void>;
}
