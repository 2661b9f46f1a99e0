import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BLOB_NAME, type BlobInfo, type BlobStore } from '../../../kernel/contracts/blob.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';

/** Temporary files start with a dot, which no blob name can. */
const TEMP_PREFIX = '.tmp-';
/** A temporary file untouched this long was left by a crash (a write takes well under a second). */
const TEMP_STALE_MS = 60_000;
// Where the platform has it, a symbolic link planted in the folder is refused instead of followed.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);

/** The file keeps bytes only: its type comes from the name's extension. */
const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webm: 'video/webm', gif: 'image/gif', webp: 'image/webp',
  json: 'application/json', txt: 'text/plain; charset=utf-8',
};
const typeOf = (name: string) => TYPES[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

function checkName(name: string): void {
  if (!BLOB_NAME.test(name)) throw Errors.VALIDATION_ERROR({ message: `blob name must match ${BLOB_NAME.source}` });
}

export interface DiskBlobStoreOptions {
  /** The folder (created when missing). */
  dir: string;
  logger: Logger;
}

/**
 * One plain file per blob, named after it. A put writes a temporary file beside the target and renames it, so a
 * reader never sees part of one; symbolic links and other strangers in the folder are neither listed nor followed.
 */
export async function openDiskBlobStore(options: DiskBlobStoreOptions): Promise<BlobStore> {
  const dir = path.resolve(options.dir);
  await fsp.mkdir(dir, { recursive: true });
  const fileOf = (name: string) => path.join(dir, name);

  async function stat(name: string): Promise<BlobInfo | undefined> {
    try {
      const found = await fsp.lstat(fileOf(name));
      return found.isFile() ? { name, size: found.size, modifiedMs: Math.floor(found.mtimeMs) } : undefined;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async function unlink(name: string): Promise<boolean> {
    try {
      await fsp.unlink(fileOf(name));
      return true;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** Removes temporary files a crash left; another instance sharing the volume may be writing a fresh one. */
  async function sweep(): Promise<number> {
    const staleBefore = Date.now() - TEMP_STALE_MS;
    let removed = 0;
    for (const entry of await fsp.readdir(dir)) {
      if (!entry.startsWith(TEMP_PREFIX)) continue;
      const found = await fsp.stat(path.join(dir, entry)).catch(() => undefined);
      if (!found || found.mtimeMs >= staleBefore) continue;
      await fsp.rm(path.join(dir, entry), { force: true });
      removed += 1;
    }
    return removed;
  }

  const swept = await sweep();
  if (swept > 0) options.logger.info({ swept }, 'removed temporary capture files left by an earlier stop');

  return {
    id: 'disk',

    async put(name, data, _options) {
      checkName(name);
      await fsp.mkdir(dir, { recursive: true }); // the folder may have been removed by hand
      const temp = path.join(dir, `${TEMP_PREFIX}${crypto.randomBytes(8).toString('hex')}`);
      try {
        if (data instanceof Readable) await pipeline(data, fs.createWriteStream(temp, { flags: 'wx' }));
        else await fsp.writeFile(temp, data, { flag: 'wx' });
        await fsp.rename(temp, fileOf(name));
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
      const info = await stat(name);
      if (!info) throw new Error(`blob ${name} vanished while it was being written`);
      return info;
    },

    async get(name) {
      checkName(name);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(fileOf(name), OPEN_FLAGS);
      } catch (error) {
        if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ELOOP') return undefined;
        throw error;
      }
      const found = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      if (!found.isFile()) {
        await handle.close();
        return undefined;
      }
      return {
        name, size: found.size, modifiedMs: Math.floor(found.mtimeMs), contentType: typeOf(name), stream: handle.createReadStream(),
      };
    },

    async stat(name) {
      checkName(name);
      return stat(name);
    },

    async list(prefix = '') {
      const entries = await fsp.readdir(dir).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT') return [] as string[]; // the folder was removed by hand: it holds nothing
        throw error;
      });
      const found = await Promise.all(entries.filter((entry) => entry.startsWith(prefix) && BLOB_NAME.test(entry)).map(stat));
      return found.filter((info): info is BlobInfo => info !== undefined);
    },

    async delete(name) {
      checkName(name);
      return unlink(name);
    },

    async deleteMany(names) {
      names.forEach(checkName);
      for (const name of names) await unlink(name);
    },

    async close() {
      // Nothing is held open between calls.
    },
  };
}
