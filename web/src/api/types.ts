/**
 * The API's shapes as the dashboard reads them. The records are the service's own (kernel/contracts/records.ts),
 * imported as types only: nothing of the kernel, and no TypeBox, reaches the bundle.
 */

export type {
  Action, ApiKey, Capture, Credential, Scope, ExecutionStatus, Output as OutputTarget, RunAnswer, RunToHereAnswer, Schedule, TaskDraft as Task,
  BrowserStateSummary as BrowserState, TaskListEntry, User, ExecutionLogLine as LogLine, ExecutionRecord as Execution, ExecutionResult as RunResult,
  /** A proxy as answered (the password, when set, is the mask). */
  ProxyRecord as Proxy,
} from '../../../kernel/contracts/records.js';
import type { ProxyRecord, TaskDraft, TaskVersion as StoredVersion } from '../../../kernel/contracts/records.js';
/** A task's field mapping (`extract`, README "Field mapping"); its schema lives outside the kernel's record. */
export type { ExtractField, ExtractOption } from '../../../layers/field-mapping/extract-option.js';

/** A version of a task, its snapshot read as the editor reads a task. */
export type TaskVersion = Omit<StoredVersion, 'snapshot'> & { snapshot: TaskDraft };

/** The value list itself (the types above are erased; this is the one value the dashboard needs at run time). */
export { EXECUTION_OUTCOMES, EXECUTION_STATUSES, EXECUTION_TRIGGERS } from '../../../kernel/contracts/record-values.js';

export interface ProxySettings {
  proxies: ProxyRecord[];
  defaultProxyId: string;
  includeDefaultInRotation: boolean;
  rotationMode: 'round-robin' | 'random';
}

export interface Location { id: number; name: string }

export interface Cookie { name: string; domain: string; path: string; expires: number; value: string }

export const THEMES = ['dark', 'light', 'solarized-light', 'solarized-dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface HeadfulStatus { useNovnc: boolean; novncPort?: number; isRunning?: boolean }

export interface SelectorCandidate { selector: string; xpath?: string; confidence?: number; tag?: string; text?: string }

export interface ScheduleDescription { valid: boolean; description?: string; cron?: string; nextRun?: number | string | null; error?: string }

/** The events a webhook endpoint may subscribe to (the one list, in layers/events). */
export { EVENT_TYPES } from '../../../layers/events/event-bus.js';

/** A webhook subscription as answered: `secret` is the mask, except in the answer that created or rotated it. */
export interface WebhookEndpoint {
  id: string; url: string; description?: string; events: string[]; taskIds?: string[]; enabled: boolean;
  secret: string; previousSecretValidUntil?: string; createdAt: string; updatedAt: string;
}

export interface WebhookAttempt { at: string; statusCode?: number; error?: string; latencyMs: number; excerpt?: string }

/** One entry of the webhook delivery log. */
export interface WebhookDelivery {
  id: string; kind: string; event: string; endpointId?: string; target: string; executionId?: string; taskId?: string;
  status: 'pending' | 'delivered' | 'failed'; createdAt: string; settledAt?: string; nextAttemptAt?: string; attempts: WebhookAttempt[];
}

/** A selector repair a run made (README "Healing"), and the actions whose element is fingerprinted. */
export type { SelectorRepair } from '../../../layers/healing/records.js';
export interface TaskRepairs {
  repairs: import('../../../layers/healing/records.js').SelectorRepair[];
  fingerprints: { actionIndex: number; selector: string; savedAt: string }[];
}
/** `GET /api/capabilities`: run limits (configured or computed, and how), the queue's fill, the browser engines. */
export type { CapabilitiesReport } from '../../../plugins/runs/capabilities-schema.js';

/** A task file (README "Task files"), as `GET /api/tasks/{id}/files` lists it. */
export type { TaskFile } from '../../../layers/task-files/index.js';
import type { TaskFile } from '../../../layers/task-files/index.js';
export interface TaskFileList {
  files: TaskFile[];
  maxBytes: number;
  maxFiles: number;
}

/** Team access (README "Team access: users and roles"). */
export type { Invitation, ManagedUser } from '../../../kernel/contracts/auth.js';
export type { Role } from '../../../kernel/contracts/records.js';
