import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { createLogger } from '../../kernel/logger.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { openPostgresStorage } from '../../providers/storage/postgres/postgres-storage.js';
import { makeTempDir, removeTempDir } from './children.js';

export type BackendName = 'json' | 'postgres';

export interface Backend {
  name: BackendName;
  storage: StorageProvider;
  /** Closes the store and removes its data (the temp directory, the schema). */
  dispose(): Promise<void>;
}

/** The PostgreSQL the bench uses (the test database by default); it works in a fresh schema, dropped afterwards. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty store of each kind, opened in this process as the service opens it. */
export async function openBackend(name: BackendName): Promise<Backend> {
  const logger = createLogger({ logLevel: 'warn' });
  if (name === 'json') {
    const dir = makeTempDir('taskloom-bench-storage-');
    const storage = await openJsonStorage({ dir: path.join(dir, 'store'), logger });
    return { name, storage, dispose: async () => { await storage.close(); await removeTempDir(dir); } };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const storage = await openPostgresStorage({ url: BENCH_DATABASE_URL, schema, logger });
  return {
    name,
    storage,
    async dispose() {
      await storage.close();
      const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
