import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from '../../kernel/contracts/blob.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import {
  EXTENSIONS, checkExecutionId, checkExtension, checkName, parseName, safeFileName, type ParsedName,
} from './capture-names.js';
import type { Capture, CaptureExtension, CaptureFilter, Captures, StoredCapture } from './decorators.js';

export const CAPTURE_URL_PREFIX = '/api/data/captures/';
/** Executions whose next number is remembered; older ones are probed again from 1. */
const REMEMBERED = 1000;

export type { OpenedCapture } from './decorators.js';
export type CaptureService = Captures;

function describe(info: BlobInfo, parsed: ParsedName): StoredCapture {
  return {
    name: info.name, url: CAPTURE_URL_PREFIX + info.name, size: info.size, modified: new Date(info.modifiedMs).toISOString(),
    type: parsed.type, runId: parsed.runId,
    ...(parsed.fileName === undefined ? {} : { fileName: parsed.fileName, contentType: parsed.contentType }),
  };
}

/** Captures kept in the blob store (`services.blob`), each a blob named `<executionId>_<n>.<ext>`. */
export function createCaptureService(blob: BlobStore, dataDir: string, logger: Logger): CaptureService {
  const dir = path.resolve(dataDir, 'captures');
  const nextNumber = new Map<string, number>();
  const queues = new Map<string, Promise<unknown>>();

  /** One placement at a time per execution, so two saves never pick the same number. */
  function serialize<T>(executionId: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(executionId) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    queues.set(executionId, tail);
    void tail.then(() => { if (queues.get(executionId) === tail) queues.delete(executionId); });
    return run;
  }

  /** Blobs that are captures (of names starting with `prefix`), parsed; others in the store are skipped. */
  async function captures(prefix = ''): Promise<Array<[BlobInfo, ParsedName]>> {
    return (await blob.list(prefix)).flatMap((info) => {
      const parsed = parseName(info.name);
      return parsed ? [[info, parsed] as [BlobInfo, ParsedName]] : [];
    });
  }

  async function removeWhere(drop: (parsed: ParsedName, info: BlobInfo) => boolean, prefix = ''): Promise<number> {
    const names = (await captures(prefix)).filter(([info, parsed]) => drop(parsed, info)).map(([info]) => info.name);
    if (names.length > 0) await blob.deleteMany(names);
    return names.length;
  }

  /**
   * The execution's next unused name ending in `tail` (an extension, or `download.<file name>`); `n` only grows
   * within a process, and never lands on an existing blob.
   */
  async function claimName(executionId: string, tail: string): Promise<string> {
    let n = nextNumber.get(executionId) ?? 1;
    for (;;) {
      const tails = EXTENSIONS.includes(tail as CaptureExtension) ? EXTENSIONS : [...EXTENSIONS, tail];
      const taken = await Promise.all(tails.map((e) => blob.stat(`${executionId}_${n}.${e}`)));
      if (taken.every((info) => info === undefined)) {
        nextNumber.delete(executionId);
        nextNumber.set(executionId, n + 1);
        if (nextNumber.size > REMEMBERED) nextNumber.delete(nextNumber.keys().next().value!);
        return `${executionId}_${n}.${tail}`;
      }
      n += 1;
    }
  }

  /** Stores `data` under the execution's next name. */
  function place(executionId: string, tail: string, data: Uint8Array | Readable): Promise<StoredCapture> {
    return serialize(executionId, async () => {
      const name = await claimName(executionId, tail);
      const parsed = checkName(name);
      const info = await blob.put(name, data, { contentType: parsed.contentType });
      return describe(info, parsed);
    });
  }

  /** Streams the file in as the execution's next capture ending in `tail`, then removes it. */
  async function adoptFile(executionId: string, filePath: string, tail: string): Promise<StoredCapture> {
    const source = path.resolve(filePath);
    const stream = (await fsp.open(source)).createReadStream();
    try {
      const capture = await place(executionId, tail, stream);
      await fsp.rm(source, { force: true });
      return capture;
    } finally {
      stream.destroy(); // read to its end already, unless the put failed first
    }
  }

  return {
    dir,

    async save(executionId, data, ext) {
      checkExecutionId(executionId);
      return place(executionId, checkExtension(ext), data);
    },

    async adopt(executionId, filePath, ext) {
      checkExecutionId(executionId);
      return adoptFile(executionId, filePath, checkExtension(ext));
    },

    async adoptDownload(executionId, filePath, fileName) {
      checkExecutionId(executionId);
      // Room for `<executionId>_<n>.download.` within a blob name's 255 characters.
      return adoptFile(executionId, filePath, `download.${safeFileName(fileName, 255 - executionId.length - 20)}`);
    },

    async list(filter: CaptureFilter = {}) {
      const wanted = (await captures(filter.runId === undefined ? '' : `${filter.runId}_`)).filter(([, parsed]) =>
        (filter.runId === undefined || parsed.runId === filter.runId)
        && parsed.type !== 'trace' && (filter.type === undefined || parsed.type === filter.type));
      return wanted
        .map(([info, parsed]) => ({ parsed, capture: describe(info, parsed) }))
        .sort((a, b) => b.capture.modified.localeCompare(a.capture.modified) || b.parsed.n - a.parsed.n
          || a.capture.name.localeCompare(b.capture.name))
        .map((entry) => entry.capture as Capture); // traces were left out above
    },

    async remove(name) {
      checkName(name);
      const removed = await blob.delete(name);
      if (removed) logger.debug({ capture: name }, 'capture deleted');
      return removed;
    },

    removeForExecution(executionId) {
      return removeWhere((parsed) => parsed.runId === executionId, `${executionId}_`);
    },

    async removeForExecutions(executionIds) {
      const ids = new Set(executionIds);
      return ids.size === 0 ? 0 : removeWhere((parsed) => ids.has(parsed.runId));
    },

    removeModifiedBefore(ms) {
      return removeWhere((_parsed, info) => info.modifiedMs < ms);
    },

    async clearScreenshots() {
      const removed = await removeWhere((parsed) => parsed.type === 'screenshot');
      logger.info({ removed }, 'screenshots cleared');
      return removed;
    },

    pathOf(name) {
      checkName(name);
      return path.join(dir, name);
    },

    async open(name) {
      const { contentType, fileName } = checkName(name);
      const found = await blob.get(name);
      return found && { stream: found.stream, size: found.size, contentType, ...(fileName === undefined ? {} : { fileName }) };
    },
  };
}
