// The decorator the data plugin adds for every scope, typed by declaration merging.

import type { Capture, CaptureType } from '../../kernel/contracts/records.js';

/** A capture file as every endpoint describes it: the record of kernel/contracts/records.ts. */
export type { Capture, CaptureType };
export type CaptureExtension = 'png' | 'jpg' | 'webm';

export interface CaptureFilter {
  runId?: string;
  type?: CaptureType;
}

/**
 * Capture files of runs under `DATA_DIR/captures` (`app.captures`, registered as `taskloom-captures`).
 * An execution id must match `^[A-Za-z0-9_-]{1,200}$`; a name must match `CAPTURE_NAME` (exported by
 * plugins/data/capture-names.ts). Methods taking either throw VALIDATION_ERROR for anything else, so no
 * name can reach outside the folder.
 */
export interface Captures {
  /** Absolute path of the captures folder. */
  readonly dir: string;
  /**
   * Writes `data` as the execution's next capture (`n` = one more than the highest number the execution
   * has had in this process, skipping names that exist); written to a temporary file, then renamed.
   */
  save(executionId: string, data: Uint8Array, ext: CaptureExtension): Promise<Capture>;
  /**
   * Moves an existing file (e.g. a finished video) in as the execution's next capture; copies then removes
   * the source when it lies on another file system. Rejects when `filePath` does not exist.
   */
  adopt(executionId: string, filePath: string, ext: CaptureExtension): Promise<Capture>;
  /** Matching captures, newest first (by modification time, then number). */
  list(filter?: CaptureFilter): Promise<Capture[]>;
  /** Resolves to `false` when no such capture exists. */
  remove(name: string): Promise<boolean>;
  /** Removes every capture of the execution; resolves to how many. An id no capture can have gives 0. */
  removeForExecution(executionId: string): Promise<number>;
  /** Same for several executions in one pass over the folder. */
  removeForExecutions(executionIds: Iterable<string>): Promise<number>;
  /** Removes every capture last changed before `ms` (epoch ms); resolves to how many (retention). */
  removeModifiedBefore(ms: number): Promise<number>;
  /** Removes every screenshot (recordings stay); resolves to how many. */
  clearScreenshots(): Promise<number>;
  /** Absolute path the capture has (or would have); does not check that it exists. */
  pathOf(name: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    captures: Captures;
  }
}
