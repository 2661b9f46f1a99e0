import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { ExtractOption } from '../../layers/field-mapping/extract-option.js';
import { mappingScript } from '../../layers/field-mapping/mapping-script.js';

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

/** The task's field mapping (`extract`, checked when saved and when a run starts), or undefined. */
export function extractOf(task: RunnableTask): ExtractOption | undefined {
  return isObject(task.extract) && Array.isArray(task.extract.fields) ? task.extract as ExtractOption : undefined;
}

/** The script run in the page after the actions: the task's own, or the one its field mapping stands for. */
export function extractionScriptOf(task: RunnableTask): string | undefined {
  if (typeof task.extractionScript === 'string' && task.extractionScript.trim() !== '') return task.extractionScript;
  const mapping = extractOf(task);
  return mapping && mappingScript(mapping);
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

/** How a run meets bot walls (the task's `antiBot`): detection on unless `detect: false`. */
export interface AntiBotOptions {
  detect: boolean;
  /** Wait this long for a challenge page to clear by itself before calling it a wall. */
  waitMs: number;
  /** With proxy rotation, run again on another proxy after an anti_bot end this many times. */
  proxyRetries: number;
  /** A found CAPTCHA widget is solved by the configured solver (`antiBot.captcha: "solve"`); off by default. */
  solveCaptcha: boolean;
  /** A bot wall pauses the run for a person (`antiBot.onWall: "pause"`) instead of ending it. */
  pauseOnWall: boolean;
  /** A page asking for a one-time code pauses the run for a person (`antiBot.onSecondFactor: "pause"`). */
  pauseOnSecondFactor: boolean;
  /** How long an automatic pause waits for a person. */
  pauseMs: number;
}

/** How long a pause waits for a person unless told otherwise (the action's timeoutMs, `antiBot.pauseMs`). */
export const DEFAULT_PAUSE_MS = 15 * 60_000;

export const DEFAULT_CHALLENGE_WAIT_MS = 5000;

export function antiBotOf(task: RunnableTask): AntiBotOptions {
  const option = isObject(task.antiBot) ? task.antiBot : {};
  const whole = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback);
  return {
    detect: option.detect !== false, waitMs: whole(option.waitMs, DEFAULT_CHALLENGE_WAIT_MS), proxyRetries: whole(option.proxyRetries, 1),
    solveCaptcha: option.captcha === 'solve',
    pauseOnWall: option.onWall === 'pause', pauseOnSecondFactor: option.onSecondFactor === 'pause',
    pauseMs: whole(option.pauseMs, 0) >= 1000 ? whole(option.pauseMs, 0) : DEFAULT_PAUSE_MS,
  };
}
