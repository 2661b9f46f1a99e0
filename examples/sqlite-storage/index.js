// taskloom-sqlite-storage: the storage capability on one SQLite file under DATA_DIR. A taskloom module: name it in
// TASKLOOM_MODULES and choose it with STORAGE=sqlite.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { defineProvider, STORAGE_CONTRACT_VERSION } from 'taskloom/contracts';
import { Type } from 'typebox';

export const sqliteStorage = defineProvider({
  capability: 'storage',
  id: 'sqlite',
  contractVersion: STORAGE_CONTRACT_VERSION,
  configPrefix: 'SQLITE_',
  configSchema: Type.Object({
    /** SQLITE_FILE: the database's name inside DATA_DIR (WAL mode adds its -wal and -shm files beside it). */
    FILE: Type.String({ default: 'taskloom.sqlite', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'a file name inside DATA_DIR, e.g. taskloom.sqlite' }),
    /** SQLITE_BUSY_TIMEOUT_MS: how long a write waits for another process's write on the same file. */
    BUSY_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 0, maximum: 600000 }),
  }),
  async create({ config, dataDir, logger }) {
    // Loaded here, not at import: TASKLOOM_MODULES imports this module also when another storage is chosen.
    const { openSqliteStorage } = await import('./src/open.js');
    await mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, config.FILE);
    const storage = await openSqliteStorage({ file, busyTimeoutMs: config.BUSY_TIMEOUT_MS });
    logger.info({ file }, 'sqlite storage opened');
    return storage;
  },
});

/** What TASKLOOM_MODULES loads. */
export default { providers: [sqliteStorage] };
