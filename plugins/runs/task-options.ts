import type { TaskRecord } from '../../kernel/contracts/records.js';

// What a run takes from a task's options (decisions.md, "Tasks"). Stored tasks were validated when saved, but
// `pageCapture` receives unsaved tasks from the dashboard: every reader here checks the shape it uses.

export const DEFAULT_RUN_TIMEOUT_MS = 120_000;

/** A task as a run reads it: a stored task, or the unsaved one generate-selector sends. */
export type RunnableTask = Pick<TaskRecord, 'url' | 'actions'> & Partial<TaskRecord>;

export interface TaskOutputOption {
  credentialId: string;
  tableId: number | string;
  onError: 'ignore' | 'fail';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function viewportOf(task: RunnableTask): { width: number; height: number } | undefined {
  const viewport = task.viewport;
  if (!isObject(viewport)) return undefined;
  const { width, height } = viewport;
  return typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0 ? { width, height } : undefined;
}

export function userAgentOf(task: RunnableTask): string | undefined {
  return typeof task.userAgent === 'string' && task.userAgent !== '' ? task.userAgent : undefined;
}

export function timeoutOf(task: RunnableTask): number {
  const value = task.timeoutMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_RUN_TIMEOUT_MS;
}

export function extractionScriptOf(task: RunnableTask): string | undefined {
  return typeof task.extractionScript === 'string' && task.extractionScript.trim() !== '' ? task.extractionScript : undefined;
}

export function outputOf(task: RunnableTask): TaskOutputOption | undefined {
  const output = task.output;
  if (!isObject(output) || typeof output.credentialId !== 'string') return undefined;
  if (typeof output.tableId !== 'string' && typeof output.tableId !== 'number') return undefined;
  return { credentialId: output.credentialId, tableId: output.tableId, onError: output.onError === 'fail' ? 'fail' : 'ignore' };
}

/** The proxy options `app.proxyRotation.forTask` reads. */
export function proxyOptionsOf(task: RunnableTask): { proxyId?: string; rotateProxies?: boolean } {
  return {
    proxyId: typeof task.proxyId === 'string' && task.proxyId !== '' ? task.proxyId : undefined,
    rotateProxies: task.rotateProxies === true,
  };
}

/** A screenshot when the run fails: on unless the task says `screenshotOnFailure: false`. */
export const screenshotOnFailureOf = (task: RunnableTask): boolean => task.screenshotOnFailure !== false;

/** A Playwright trace of the run: asked by the run, or by the task (`trace: true`). */
export const traceOf = (task: RunnableTask, asked?: boolean): boolean => asked === true || task.trace === true;

/** Task variables, overridden by the run's. */
export function variablesOf(task: RunnableTask, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(isObject(task.variables) ? task.variables : {}), ...overrides };
}

/**
 * Fills `{$name}` placeholders of the task URL (the runner fills those of actions). `{$now}` is the current
 * ISO time; an unknown name is left as written, so the URL check names it rather than a silently emptied URL.
 */
export function fillUrl(url: string, variables: Record<string, unknown>): string {
  return url.replace(/\{\$([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
    if (name === 'now') return new Date().toISOString();
    const value = variables[name];
    if (value === undefined || value === null) return whole;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
