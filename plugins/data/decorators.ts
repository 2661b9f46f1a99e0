// The decorator the data plugin adds for every scope, typed by declaration merging.

import type { Readable } from 'node:stream';
import type { Capture, CaptureType } from '../../kernel/contracts/records.js';

/** A capture file as every endpoint describes it: the record of kernel/contracts/records.ts. */
export type { Capture, CaptureType };
export type CaptureExtension = 'png' | 'jpg' | 'webm' | 'zip';
/** What a stored file of a run is: a capture, or the run's Playwright trace (a `zip`, never listed as a capture). */
export type StoredType = CaptureType | 'trace';
/** A file of a run as `save` and `adopt` describe it. */
export type StoredCapture = Omit<Capture, 'type'> & { type: StoredType };

/** An opened capture, ready to stream. */
export interface OpenedCapture {
  stream: Readable;
  size: number;
  contentType: string;
  /** A download's file name. */
  fileName?: string;
}

export interface CaptureFilter {
  runId?: string;
  type?: CaptureType;
}

/**
 * Captures of runs, kept in the blob store (`services.blob`, BLOB_STORE) as blobs named `<executionId>_<n>.<ext>`
 * (`app.captures`, registered as `taskloom-captures`).
 * An execution id must match `^[A-Za-z0-9_-]{1,200}$`; a name must match `CAPTURE_NAME` (exported by
 * plugins/data/capture-names.ts). Methods taking either throw VALIDATION_ERROR for anything else, so no
 * name can reach outside the folder.
 */
export interface Captures {
  /** Absolute path of `DATA_DIR/captures`: where the disk store (BLOB_STORE=disk) keeps them; unused by other stores. */
  readonly dir: string;
  /**
   * Writes `data` as the execution's next capture (`n` = one more than the highest number the execution
   * has had in this process, skipping names that exist); readers see it whole or not at all.
   */
  save(executionId: string, data: Uint8Array, ext: CaptureExtension): Promise<StoredCapture>;
  /**
   * Moves an existing file (e.g. a finished video) in as the execution's next capture: streams it into the
   * blob store, then removes it. Rejects when `filePath` does not exist.
   */
  adopt(executionId: string, filePath: string, ext: CaptureExtension): Promise<StoredCapture>;
  /**
   * Moves a file a `download` action kept in as the execution's next capture, of type `download`, named
   * `<executionId>_<n>.download.<fileName made safe>`; its media type comes from that name.
   */
  adoptDownload(executionId: string, filePath: string, fileName: string): Promise<StoredCapture>;
  /** Matching captures (screenshots, recordings and downloads, never traces), newest first (by modification time, then number). */
  list(filter?: CaptureFilter): Promise<Capture[]>;
  /** Resolves to `false` when no such capture exists. */
  remove(name: string): Promise<boolean>;
  /** Removes every capture of the execution; resolves to how many. An id no capture can have gives 0. */
  removeForExecution(executionId: string): Promise<number>;
  /** Same for several executions in one pass over the store. */
  removeForExecutions(executionIds: Iterable<string>): Promise<number>;
  /** Removes every capture last changed before `ms` (epoch ms); resolves to how many (retention). */
  removeModifiedBefore(ms: number): Promise<number>;
  /** Removes every screenshot (recordings stay); resolves to how many. */
  clearScreenshots(): Promise<number>;
  /** Opens a capture (or trace) for reading; undefined when it does not exist. */
  open(name: string): Promise<OpenedCapture | undefined>;
  /** Absolute path the capture has (or would have) with the disk store; does not check that it exists. */
  pathOf(name: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    captures: Captures;
  }
}
