import type { Readable } from 'node:stream';

/** The blob contract's version (`major.minor`, see provider.ts), and the oldest a store may be built for. */
export const BLOB_CONTRACT_VERSION = '1.0';
export const BLOB_CONTRACT_ACCEPTS = '1.0';

/**
 * What a blob name must match: 1 to 255 letters, digits, `.`, `_` and `-`, not starting with `.`. Names are
 * flat (no folders), so none reaches outside a store; every method throws `Errors.VALIDATION_ERROR` for another.
 */
export const BLOB_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;

/** What a store knows of a blob without reading it. */
export interface BlobInfo {
  name: string;
  /** Bytes. */
  size: number;
  /** Epoch ms of the put that wrote it (whole milliseconds). */
  modifiedMs: number;
}

/** A blob opened for reading. */
export interface BlobContent extends BlobInfo {
  /** The media type given to `put`; a store that keeps bytes only (disk) derives it from the name's extension. */
  contentType: string;
  /** The bytes, read from the store as they are consumed. Read it to the end or destroy it. */
  stream: Readable;
}

export interface BlobPutOptions {
  /** Media type, e.g. `image/png`. */
  contentType: string;
}

/**
 * The blob capability (BLOB_STORE): named byte strings, such as the captures of runs, kept where every instance
 * sharing the store reaches them. Failures (an unreachable store, a failed stream) reject; no message holds a
 * credential.
 */
export interface BlobStore {
  /** The provider id, e.g. `disk`. */
  readonly id: string;
  /**
   * Stores `data` (bytes, or a stream read to its end) under `name`, replacing a blob of that name. Readers see
   * the old blob or the whole new one, never a part; when the stream fails, the put rejects and stores nothing.
   */
  put(name: string, data: Uint8Array | Readable, options: BlobPutOptions): Promise<BlobInfo>;
  /** The blob, ready to stream; undefined when there is none of that name. */
  get(name: string): Promise<BlobContent | undefined>;
  /** The blob's info; undefined when there is none of that name. */
  stat(name: string): Promise<BlobInfo | undefined>;
  /** Every blob whose name starts with `prefix` (all without one), in no particular order. */
  list(prefix?: string): Promise<BlobInfo[]>;
  /** Removes the blob; resolves to false when there was none of that name. */
  delete(name: string): Promise<boolean>;
  /** Removes every named blob there is (names without a blob are skipped), in as few calls as the store allows. */
  deleteMany(names: readonly string[]): Promise<void>;
  /** Releases connections and files; waits for calls already started. Idempotent. */
  close(): Promise<void>;
}
