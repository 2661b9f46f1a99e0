/**
 * The API's shapes as the dashboard reads them. The records are the service's own (kernel/contracts/records.ts),
 * imported as types only: nothing of the kernel, and no TypeBox, reaches the bundle.
 */

export type {
  Action, Capture, Credential, ExecutionStatus, Output as OutputTarget, RunAnswer, RunToHereAnswer, Schedule, TaskDraft as Task,
  TaskListEntry, User, ExecutionLogLine as LogLine, ExecutionRecord as Execution, ExecutionResult as RunResult,
  /** A proxy as answered (the password, when set, is the mask). */
  ProxyRecord as Proxy,
} from '../../../kernel/contracts/records.js';
import type { ProxyRecord, TaskDraft, TaskVersion as StoredVersion } from '../../../kernel/contracts/records.js';

/** A version of a task, its snapshot read as the editor reads a task. */
export type TaskVersion = Omit<StoredVersion, 'snapshot'> & { snapshot: TaskDraft };

/** The value list itself (the types above are erased; this is the one value the dashboard needs at run time). */
export { EXECUTION_STATUSES, EXECUTION_TRIGGERS } from '../../../kernel/contracts/record-values.js';

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
