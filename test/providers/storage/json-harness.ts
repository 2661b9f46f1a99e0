import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { openJsonStorage, type JsonStorageOptions } from '../../../providers/storage/json/index.js';
import type { StorageHarness } from '../../../testing/storage.contract.js';

export interface JsonHarness extends StorageHarness {
  dir: string;
}

export async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-json-'));
}

/** A json store on a fresh temp dir; `storage` always names the instance opened last. */
export async function createJsonHarness(options: Omit<JsonStorageOptions, 'dir'> = {}): Promise<JsonHarness> {
  const dir = await tempDir();
  let storage: StorageProvider = await openJsonStorage({ dir, ...options });
  return {
    dir,
    get storage() {
      return storage;
    },
    async reopen() {
      await storage.close();
      storage = await openJsonStorage({ dir, ...options });
      return storage;
    },
    async cleanup() {
      await storage.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every line of a journal file, parsed; throws if one is not JSON. */
export async function journalLines(file: string): Promise<unknown[]> {
  const text = await fs.readFile(file, 'utf8');
  if (text !== '' && !text.endsWith('\n')) throw new Error(`${file} does not end with a newline`);
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
}

export interface LogEntry {
  level: string;
  obj: unknown;
  msg?: string;
}

/** A Logger that remembers what it was told. */
export function recordingLogger(entries: LogEntry[] = []): Logger & { entries: LogEntry[] } {
  const at = (level: string) => (obj: unknown, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  const logger = {
    entries,
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    child: () => logger,
  };
  return logger;
}
