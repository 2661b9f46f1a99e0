/** The API's shapes as the dashboard reads them (spec and decisions.md). */

export interface User { id?: string; name: string; email: string }

// The task shapes are the kernel's own records (types only: nothing of the kernel reaches the bundle).
export type { Action, Schedule } from '../../../kernel/contracts/records.js';
import type { Action, Schedule } from '../../../kernel/contracts/records.js';

export interface OutputTarget { credentialId: string; tableId: string | number; onError?: 'ignore' | 'fail' }

export interface Task {
  id?: string;
  name: string;
  description?: string;
  url: string;
  mode: string;
  actions: Action[];
  variables?: Record<string, unknown>;
  schedule?: Schedule;
  extractionScript?: string;
  rotateProxies?: boolean;
  proxyId?: string;
  viewport?: { width: number; height: number };
  userAgent?: string;
  timeoutMs?: number;
  output?: OutputTarget;
  record?: boolean;
  createdAt?: string;
  updatedAt?: string;
  versions?: TaskVersion[];
  [option: string]: unknown;
}

export interface TaskVersion { id: string; savedAt: string; snapshot: Task }

export interface TaskListEntry {
  id: string;
  name: string;
  description?: string;
  url: string;
  mode: string;
  updatedAt: string;
  createdAt: string;
  actionCount: number;
  schedule?: Schedule;
}

export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export interface LogLine { at: string; level: 'debug' | 'info' | 'warn' | 'error'; message: string; actionIndex?: number }

export interface RunResult {
  data?: unknown;
  finalUrl?: string;
  title?: string;
  captures?: string[];
  error?: { message: string; actionIndex?: number };
}

export interface Execution {
  executionId: string;
  taskId: string;
  taskName: string;
  status: ExecutionStatus;
  trigger: 'api' | 'schedule' | 'dashboard';
  startedAt: string;
  finishedAt?: string;
  durationMs: number;
  result: RunResult;
  logs: LogLine[];
}

export interface RunAnswer { executionId: string; taskId: string; status: ExecutionStatus; durationMs: number; result: RunResult }

export interface Capture { name: string; url: string; size: number; modified: string; type: 'screenshot' | 'recording'; runId?: string }

export interface Proxy {
  id: string;
  server: string;
  username?: string;
  password?: string;
  label?: string;
  isRotatingPool?: boolean;
  estimatedPoolSize?: number;
}

export interface ProxySettings {
  proxies: Proxy[];
  defaultProxyId: string;
  includeDefaultInRotation: boolean;
  rotationMode: 'round-robin' | 'random';
}

export interface Credential {
  id: string;
  name: string;
  provider: string;
  config: { baseUrl: string; token: string };
}

export interface Location { id: number; name: string }

export interface Cookie { name: string; domain: string; path: string; expires: number; value: string }

export const THEMES = ['dark', 'light', 'solarized-light', 'solarized-dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface HeadfulStatus { useNovnc: boolean; novncPort?: number; isRunning?: boolean }

export interface SelectorCandidate { selector: string; xpath?: string; confidence?: number; tag?: string; text?: string }

export interface ScheduleDescription { valid: boolean; description?: string; cron?: string; nextRun?: number | string | null; error?: string }
