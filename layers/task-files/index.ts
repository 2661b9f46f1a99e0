// Files a task keeps for its `upload` actions, as blobs of the blob store (BLOB_STORE, where captures live) named
// `taskfile.<key>.<name>`: the key is a hash of the task id (any id fits a blob name that way), and the prefix
// keeps them apart from captures, so retention, which only touches captures, never removes them. Used by the
// tasks plugin (the API) and the runs plugin (the upload action).
import { createHash } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import mime from 'mime-types';
import type { BlobStore } from '../../kernel/contracts/blob.js';
import { Errors } from '../../kernel/errors.js';

/** A task file's name: letters, digits, `.`, `_` and `-`, not starting with `.`, up to 128 characters. */
export const TASK_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
export const DEFAULT_TASK_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TASK_FILES_MAX = 20;

export interface TaskFile {
  name: string;
  /** Bytes. */
  size: number;
  /** From the name's extension (`application/octet-stream` when it tells nothing). */
  contentType: string;
  /** ISO 8601: when it was uploaded. */
  modified: string;
}

export interface TaskFileLimits {
  /** The most bytes one file may hold. */
  maxBytes: number;
  /** The most files one task may keep. */
  maxFiles: number;
}

export const contentTypeOfName = (name: string): string => mime.lookup(name) || 'application/octet-stream';

function checkFileName(name: string): void {
  if (!TASK_FILE_NAME.test(name)) {
    throw Errors.VALIDATION_ERROR({ message: `a task file's name must match ${TASK_FILE_NAME.source}, got ${JSON.stringify(name.slice(0, 140))}` });
  }
}

/** The blob name prefix of a task's files. */
const prefixOf = (taskId: string) => `taskfile.${createHash('sha256').update(taskId).digest('base64url').slice(0, 22)}.`;

/** Passes `limit` bytes on and fails with PAYLOAD_TOO_LARGE at the first byte beyond. */
function capped(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? Errors.PAYLOAD_TOO_LARGE({ limit }) : null, chunk);
    },
  });
}

export interface TaskFiles {
  list(taskId: string): Promise<TaskFile[]>;
  /**
   * Stores `data` as the task's file `name` (replacing one of that name). Rejects PAYLOAD_TOO_LARGE beyond
   * `maxBytes` (storing nothing), VALIDATION_ERROR for a bad name or a file beyond `maxFiles`.
   */
  put(taskId: string, name: string, data: Readable | Uint8Array, limits: TaskFileLimits): Promise<TaskFile>;
  /** The file's bytes; undefined when the task has no such file. */
  read(taskId: string, name: string): Promise<{ file: TaskFile; stream: Readable } | undefined>;
  /** False when there was no such file. */
  remove(taskId: string, name: string): Promise<boolean>;
  /** Removes every file of the task (it was deleted); resolves to how many. */
  removeAll(taskId: string): Promise<number>;
}

export function createTaskFiles(blob: BlobStore): TaskFiles {
  const describe = (blobName: string, taskId: string, size: number, modifiedMs: number): TaskFile => {
    const name = blobName.slice(prefixOf(taskId).length);
    return { name, size, contentType: contentTypeOfName(name), modified: new Date(modifiedMs).toISOString() };
  };
  const list = async (taskId: string) => (await blob.list(prefixOf(taskId)))
    .map((info) => describe(info.name, taskId, info.size, info.modifiedMs))
    .sort((a, b) => a.name.localeCompare(b.name));

  return {
    list,

    async put(taskId, name, data, limits) {
      checkFileName(name);
      const existing = await list(taskId);
      if (existing.length >= limits.maxFiles && !existing.some((file) => file.name === name)) {
        throw Errors.VALIDATION_ERROR({ message: `a task keeps at most ${limits.maxFiles} files (TASK_FILES_MAX): delete one first` });
      }
      if (data instanceof Uint8Array && data.length > limits.maxBytes) throw Errors.PAYLOAD_TOO_LARGE({ limit: limits.maxBytes });
      // pipeline: an error (the limit, a broken upload) ends both streams, and the put rejects with it.
      const body = data instanceof Uint8Array ? data : pipeline(data, capped(limits.maxBytes), () => undefined);
      const info = await blob.put(prefixOf(taskId) + name, body, { contentType: contentTypeOfName(name) });
      return describe(info.name, taskId, info.size, info.modifiedMs);
    },

    async read(taskId, name) {
      checkFileName(name);
      const found = await blob.get(prefixOf(taskId) + name);
      return found && { file: describe(found.name, taskId, found.size, found.modifiedMs), stream: found.stream };
    },

    async remove(taskId, name) {
      checkFileName(name);
      return blob.delete(prefixOf(taskId) + name);
    },

    async removeAll(taskId) {
      const names = (await blob.list(prefixOf(taskId))).map((info) => info.name);
      if (names.length > 0) await blob.deleteMany(names);
      return names.length;
    },
  };
}
