import { randomUUID } from 'node:crypto';
import type {
  BrowserStateRecord,
  CredentialRecord,
  ExecutionRecord,
  SessionRecord,
  TaskRecord,
  UserRecord,
} from '../../kernel/contracts/records.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';

interface HealingShape {
  id: string;
  fingerprints: { actionIndex: number; selector: string; fingerprint: Record<string, unknown>; taskVersion: string; savedAt: string }[];
  repairs: unknown[];
}

/** One isolated storage instance under test. */
export interface StorageHarness {
  storage: StorageProvider;
  /** Closes the current instance if still open and opens a new one on the same data. */
  reopen(): Promise<StorageProvider>;
  /** Closes whatever is open and removes the data. */
  cleanup(): Promise<void>;
}

export type StorageFactory = () => Promise<StorageHarness>;

/** The harness of the running test (each test gets a fresh one). */
export type CurrentHarness = () => StorageHarness;

const BASE_MS = Date.parse('2024-03-01T09:00:00.000Z');

/** ISO timestamp `minutes` after a fixed base. */
export const at = (minutes: number): string => new Date(BASE_MS + minutes * 60_000).toISOString();

export function makeUser(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = randomUUID();
  return { id, name: 'Ada', email: `ada-${id}@example.com`, passwordHash: 'scrypt$fake', createdAt: at(0), ...overrides };
}

export function makeSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return { id: randomUUID(), userId: randomUUID(), createdAt: at(0), expiresAtMs: BASE_MS + 3_600_000, ...overrides };
}

export function makeTask(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: randomUUID(),
    name: 'Scrape prices',
    url: 'https://example.com/',
    mode: 'scrape',
    actions: [{ type: 'click', selector: '#go' }],
    variables: { page: 1 },
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function makeCredential(overrides: Partial<CredentialRecord> = {}): CredentialRecord {
  return { id: randomUUID(), name: 'Baserow', provider: 'baserow', config: { token: 'secret' }, createdAt: at(0), updatedAt: at(0), ...overrides };
}

/** A named browser state as the browser-states layer writes it: the state itself is a sealed string. */
export function makeBrowserState(overrides: Partial<BrowserStateRecord> = {}): BrowserStateRecord {
  return {
    id: `state-${randomUUID().slice(0, 8)}`, origins: ['https://example.com'], cookieCount: 2, sizeBytes: 310,
    createdAt: at(0), updatedAt: at(0), sealed: `enc:v1:0123456789abcdef:${'A'.repeat(16)}:${'B'.repeat(40)}`, ...overrides,
  };
}

/** A task's healing record as the healing layer writes it (the store keeps it as an opaque document). */
export function makeHealing(overrides: Partial<HealingShape> = {}): HealingShape {
  const fingerprint = {
    tag: 'button', role: 'button', name: 'Sign in', text: 'Sign in', attributes: { id: 'login' }, classes: ['btn'],
    index: 1, siblings: 1, ancestors: ['form', 'main', 'body'], landmarks: ['form'], neighbours: ['Email'],
  };
  return {
    id: randomUUID(),
    fingerprints: [{ actionIndex: 0, selector: '#login', fingerprint, taskVersion: at(0), savedAt: at(0) }],
    repairs: [],
    ...overrides,
  };
}

export function makeExecution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    executionId: randomUUID(),
    taskId: 'task-a',
    taskName: 'Task A',
    status: 'success',
    trigger: 'api',
    startedAt: at(0),
    finishedAt: at(1),
    durationMs: 1234,
    result: { data: { rows: [1, 2, 3] }, finalUrl: 'https://example.com/done', title: 'Done' },
    logs: [
      { at: at(0), level: 'info', message: 'started' },
      { at: at(1), level: 'info', message: 'finished', actionIndex: 0 },
    ],
    ...overrides,
  };
}
