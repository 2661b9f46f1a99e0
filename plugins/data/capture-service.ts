import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from '../../kernel/contracts/logger.js';
import {
  CONTENT_TYPES, checkExecutionId, checkExtension, checkName, parseName, type ParsedName,
} from './capture-names.js';
import type { Capture, CaptureExtension, CaptureFilter, Captures } from './decorators.js';

export const CAPTURE_URL_PREFIX = '/api/data/captures/';
/** Temporary files start with a dot, which no capture name can. */
const TEMP_PREFIX = '.tmp-';
/** A temporary file untouched this long was left by a crash (a copy or write takes well under a second). */
const TEMP_STALE_MS = 60_000;
/** Executions whose next number is remembered; older ones are probed again from 1. */
const REMEMBERED = 1000;
// Where the platform has it, a symbolic link planted in the folder is refused instead of followed.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** An opened capture, ready to stream. */
export interface OpenedCapture {
  stream: Readable;
  size: number;
  contentType: string;
}

export interface CaptureService extends Captures {
  /** Opens a capture for reading; undefined when it does not exist (or is not a plain file). */
  open(name: string): Promise<OpenedCapture | undefined>;
  /** Removes temporary files a crash left behind; resolves to how many. */
  sweep(): Promise<number>;
}

export async function createCaptureService(dataDir: string, logger: Logger): Promise<CaptureService> {
  const dir = path.resolve(dataDir, 'captures');
  await fsp.mkdir(dir, { recursive: true });
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

  const fileOf = (name: string) => path.join(dir, name);

  async function describe(name: string, parsed: ParsedName): Promise<Capture | undefined> {
    try {
      const stat = await fsp.lstat(fileOf(name));
      if (!stat.isFile()) return undefined;
      return {
        name, url: CAPTURE_URL_PREFIX + name, size: stat.size, modified: stat.mtime.toISOString(), type: parsed.type, runId: parsed.runId,
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Capture names in the folder, parsed; everything else (temporary files, strangers) is skipped. */
  async function names(): Promise<Array<[string, ParsedName]>> {
    const entries = await fsp.readdir(dir).catch((error: unknown) => {
      if (isMissing(error)) return [] as string[]; // the folder was removed by hand: it holds nothing
      throw error;
    });
    return entries.flatMap((name) => {
      const parsed = parseName(name);
      return parsed ? [[name, parsed] as [string, ParsedName]] : [];
    });
  }

  async function unlink(name: string): Promise<boolean> {
    try {
      await fsp.unlink(fileOf(name));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async function removeWhere(keep: (parsed: ParsedName) => boolean): Promise<number> {
    let removed = 0;
    for (const [name, parsed] of await names()) {
      if (!keep(parsed) && (await unlink(name))) removed += 1;
    }
    return removed;
  }

  /** The execution's next unused name; `n` only grows within a process, and never lands on an existing file. */
  async function claimName(executionId: string, ext: CaptureExtension): Promise<string> {
    let n = nextNumber.get(executionId) ?? 1;
    for (;;) {
      const name = `${executionId}_${n}.${ext}`;
      const taken = await Promise.all(
        (['png', 'jpg', 'webm'] as const).map((e) => fsp.lstat(fileOf(`${executionId}_${n}.${e}`)).then(() => true, () => false)),
      );
      if (!taken.includes(true)) {
        nextNumber.delete(executionId);
        nextNumber.set(executionId, n + 1);
        if (nextNumber.size > REMEMBERED) nextNumber.delete(nextNumber.keys().next().value!);
        return name;
      }
      n += 1;
    }
  }

  /** Puts a file into place under the execution's next name; `put` moves it from wherever it is. */
  async function place(executionId: string, ext: string, put: (target: string) => Promise<void>): Promise<Capture> {
    checkExecutionId(executionId);
    const extension = checkExtension(ext);
    return serialize(executionId, async () => {
      await fsp.mkdir(dir, { recursive: true });
      const name = await claimName(executionId, extension);
      await put(fileOf(name));
      const capture = await describe(name, checkName(name));
      if (!capture) throw new Error(`capture ${name} vanished while it was being saved`);
      return capture;
    });
  }

  const tempPath = () => path.join(dir, `${TEMP_PREFIX}${crypto.randomBytes(8).toString('hex')}`);

  async function moveIn(source: string, target: string): Promise<void> {
    try {
      await fsp.rename(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another file system: copy next to the target first, so the target appears whole or not at all.
      const temp = tempPath();
      try {
        await fsp.copyFile(source, temp);
        await fsp.rename(temp, target);
      } catch (copyError) {
        await fsp.rm(temp, { force: true });
        throw copyError;
      }
      await fsp.rm(source, { force: true });
    }
  }

  return {
    dir,

    save(executionId, data, ext) {
      return place(executionId, ext, async (target) => {
        const temp = tempPath();
        try {
          await fsp.writeFile(temp, data, { flag: 'wx' });
          await fsp.rename(temp, target);
        } catch (error) {
          await fsp.rm(temp, { force: true });
          throw error;
        }
      });
    },

    adopt(executionId, filePath, ext) {
      return place(executionId, ext, (target) => moveIn(path.resolve(filePath), target));
    },

    async list(filter: CaptureFilter = {}) {
      const wanted = (await names()).filter(([, parsed]) =>
        (filter.runId === undefined || parsed.runId === filter.runId) && (filter.type === undefined || parsed.type === filter.type));
      const found = await Promise.all(wanted.map(async ([name, parsed]) => ({ parsed, capture: await describe(name, parsed) })));
      return found
        .filter((entry): entry is { parsed: ParsedName; capture: Capture } => entry.capture !== undefined)
        .sort((a, b) => b.capture.modified.localeCompare(a.capture.modified) || b.parsed.n - a.parsed.n
          || a.capture.name.localeCompare(b.capture.name))
        .map((entry) => entry.capture);
    },

    async remove(name) {
      checkName(name);
      const removed = await unlink(name);
      if (removed) logger.debug({ capture: name }, 'capture deleted');
      return removed;
    },

    async removeForExecution(executionId) {
      return removeWhere((parsed) => parsed.runId !== executionId);
    },

    async removeForExecutions(executionIds) {
      const ids = new Set(executionIds);
      return ids.size === 0 ? 0 : removeWhere((parsed) => !ids.has(parsed.runId));
    },

    async clearScreenshots() {
      const removed = await removeWhere((parsed) => parsed.type !== 'screenshot');
      logger.info({ removed }, 'screenshots cleared');
      return removed;
    },

    pathOf(name) {
      checkName(name);
      return fileOf(name);
    },

    async open(name) {
      const { ext } = checkName(name);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(fileOf(name), OPEN_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ELOOP') return undefined;
        throw error;
      }
      const stat = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      if (!stat.isFile()) {
        await handle.close();
        return undefined;
      }
      return { stream: handle.createReadStream(), size: stat.size, contentType: CONTENT_TYPES[ext] };
    },

    async removeModifiedBefore(ms) {
      let removed = 0;
      for (const [name] of await names()) {
        const stat = await fsp.lstat(fileOf(name)).catch(() => undefined);
        if (stat?.isFile() && stat.mtimeMs < ms && (await unlink(name))) removed += 1;
      }
      return removed;
    },

    async sweep() {
      let removed = 0;
      // Another instance sharing the captures volume may be writing one right now: only stale ones are debris.
      const staleBefore = Date.now() - TEMP_STALE_MS;
      for (const entry of await fsp.readdir(dir)) {
        if (!entry.startsWith(TEMP_PREFIX)) continue;
        const file = path.join(dir, entry);
        const stat = await fsp.stat(file).catch(() => undefined);
        if (!stat || stat.mtimeMs >= staleBefore) continue;
        await fsp.rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}
