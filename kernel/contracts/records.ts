/**
 * The records every capability passes around. Types only: no behaviour lives here.
 * Timestamps are ISO 8601 strings unless the name ends in `Ms` (epoch or duration milliseconds).
 */

/** A dashboard account. `passwordHash` never leaves the auth and storage layers. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  createdAt: string;
}

/** A server-side login session. `id` is a hash of the cookie token, never the token itself. */
export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  /** Epoch milliseconds after which the session is void. */
  expiresAtMs: number;
}

/** One browser action of a task (decisions.md, "Actions"). */
export interface Action {
  id?: string;
  type: string;
  selector?: string;
  value?: string;
  key?: string;
  varName?: string;
  timeoutMs?: number;
  disabled?: boolean;
}

/** A recurring schedule attached to a task. Read-only fields are maintained by the scheduler. */
export interface Schedule {
  enabled: boolean;
  frequency?: 'interval' | 'hourly' | 'daily' | 'weekly' | 'monthly';
  intervalMinutes?: number;
  hour?: number;
  minute?: number;
  daysOfWeek?: number[];
  dayOfMonth?: number;
  cron?: string;
  timezone?: string;
  lastRun?: string | null;
  lastRunStatus?: string | null;
  lastRunDurationMs?: number | null;
  nextRun?: number | null;
}

/** A task as stored. Unknown top-level options are kept as they were sent. */
export interface TaskRecord {
  id: string;
  name: string;
  description?: string;
  url: string;
  mode: string;
  actions: Action[];
  variables?: Record<string, unknown>;
  schedule?: Schedule;
  createdAt: string;
  updatedAt: string;
  /** Newest first, at most 100. */
  versions?: TaskVersion[];
  [option: string]: unknown;
}

/** A task without its history (`Omit` would lose the named fields to the index signature). */
export type TaskSnapshot = { [K in keyof TaskRecord as K extends 'versions' ? never : K]: TaskRecord[K] };

/** A snapshot of a task taken before it was overwritten or patched. */
export interface TaskVersion {
  id: string;
  savedAt: string;
  snapshot: TaskSnapshot;
}

export type ExecutionStatus =
  | 'queued'
  | 'running'
  | 'success'
  | 'error'
  | 'timeout'
  | 'cancelled'
  | 'interrupted';

export type ExecutionTrigger = 'api' | 'schedule' | 'dashboard';

export interface ExecutionLogLine {
  at: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  actionIndex?: number;
}

export interface ExecutionResult {
  data?: unknown;
  finalUrl?: string;
  title?: string;
  captures?: string[];
  error?: { message: string; actionIndex?: number };
  [extra: string]: unknown;
}

/** One run of a task. */
export interface ExecutionRecord {
  executionId: string;
  taskId: string;
  taskName: string;
  status: ExecutionStatus;
  trigger: ExecutionTrigger;
  startedAt: string;
  finishedAt?: string;
  durationMs: number;
  result: ExecutionResult;
  logs: ExecutionLogLine[];
  /**
   * The instance (`INSTANCE_ID`) that queued and runs it, so recovery interrupts only the runs of instances
   * that stopped. Internal: not part of any API answer. Absent on records written before instances were named.
   */
  instanceId?: string;
  [extra: string]: unknown;
}

/** The list-view subset of an execution: no logs, no result payload. */
export interface ExecutionSummary {
  executionId: string;
  taskId: string;
  taskName: string;
  status: ExecutionStatus;
  trigger: ExecutionTrigger;
  startedAt: string;
  durationMs: number;
}

/** An output-provider credential. `config` holds secrets (the token) and is masked by the HTTP layer. */
export interface CredentialRecord {
  id: string;
  name: string;
  provider: string;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}
