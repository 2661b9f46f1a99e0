import { capitalActionLabel } from '../../../layers/action-label/action-label.js';
import type { Action } from '../../../kernel/contracts/records.js';
import type { RunnerHealing } from './healing-step.js';

/** What the runner asks of the run around it (the runs plugin provides it). */
export interface RunnerHooks {
  /** Appends a log line to the run (also streamed live). */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, actionIndex?: number): void;
  /** Saves a screenshot capture and resolves to its capture name. */
  saveScreenshot(data: Buffer, ext: 'png' | 'jpg'): Promise<string>;
  /** A task file for an `upload` action; rejects naming it when the task has none of that name. */
  taskFile?(name: string): Promise<{ name: string; mimeType: string; buffer: Buffer }>;
  /** Keeps a finished download (a local file, moved away) as a capture; resolves to the capture's name. */
  saveDownload?(filePath: string, fileName: string): Promise<string>;
  /** Rejects (and the run fails at that action) when `url` may not be visited (private-network rule). */
  checkNavigation(url: string): Promise<void>;
  /** Told as each action starts (after its log line), with its filled selector: what the live view shows. */
  actionStarted?(index: number, type: string, selector: string | undefined): void;
  /**
   * A `pause_for_human` action: the run waits for a person (human-pause.ts) and goes on once resumed; rejects when
   * no one resumed it in time (the run ends stopped). Absent: the action fails (nothing could hand the page over).
   */
  pauseForHuman?(message: string, timeoutMs: number | undefined, actionIndex: number): Promise<void>;
  /** Told after each action that ended well, before the next (the second-factor check); may wait. */
  actionEnded?(index: number, type: string): Promise<void>;
  /** Aborted when the run is cancelled or times out: stop issuing actions at once. */
  signal: AbortSignal;
  /** Fingerprints the elements actions act on and repairs a selector that matches nothing (healing-step.ts). */
  healing?: RunnerHealing;
}

export interface RunnerInput {
  actions: Action[];
  /** Task variables already overridden by the run's variables. */
  variables: Record<string, unknown>;
  extractionScript?: string;
  /** 'scrape' skips the actions and only runs the extraction script (the page is already loaded). */
  mode: string;
  /**
   * Run to here: the actions end (as after a `stop`) the first time an action after this index would run; a block
   * opened at it runs its check (`if`) or count (`foreach`), not its actions.
   */
  stopAfter?: number;
  /** Kept up to date as the actions run, so a caller sees them also when an action fails. */
  watch?: RunnerWatch;
}

/** What `RunnerInput.watch` shows: the variables as they are now (after `set`), and the latest action output. */
export interface RunnerWatch {
  variables?: Record<string, unknown>;
  output?: { value: unknown };
}

export interface RunnerOutput {
  /** The extraction script's return value (undefined without a script). */
  data: unknown;
  /** True when a `stop` action ended the run. */
  stopped: boolean;
  /** Variables as they were at the end (after `set` actions). */
  variables: Record<string, unknown>;
  /** Names of the screenshots taken and downloads kept, in order. */
  captures: string[];
}

/** An action failed; `actionIndex` is its index in `actions` (from 0, as the API gives it). */
export class ActionError extends Error {
  constructor(readonly actionIndex: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ActionError';
  }
}

/** A navigate action's URL cannot be visited at all (not a URL, or not http/https). */
export class InvalidUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidUrlError';
  }
}

/** The extraction script failed (it is no action, so there is no index). */
export class ExtractionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExtractionError';
  }
}

/** An ActionError whose message names the action as a person counts: `Action 3 (click): <detail>` for index 2. */
export function actionError(index: number, type: string, detail: string, cause?: unknown): ActionError {
  return new ActionError(index, `${capitalActionLabel(index, type)}: ${detail}`, cause === undefined ? undefined : { cause });
}
