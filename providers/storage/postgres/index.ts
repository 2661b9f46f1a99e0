import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { urlSetting } from '../shared/url-setting.js';

export type { PostgresStorage, PostgresStorageOptions } from './postgres-storage.js';
export { migrations, type Migration } from './schema-migrations.js';

/**
 * PostgreSQL storage (`STORAGE=postgres`, `DATABASE_URL`): one database shared by every instance.
 * The implementation (and the `pg` client) loads only when this provider is chosen.
 */
export const postgresStorage = defineProvider({
  capability: 'storage',
  id: 'postgres',
  contractVersion: STORAGE_CONTRACT_VERSION,
  configSchema: Type.Object({ DATABASE_URL: urlSetting(['postgres:', 'postgresql:']) }),
  create: async (ctx) => {
    // The registry checked it; a direct create (a test, a tool) may still come without.
    if (!ctx.config.DATABASE_URL) throw new Error('postgres storage needs DATABASE_URL (postgres://user:password@host:5432/database)');
    const { openPostgresStorage } = await import('./postgres-storage.js');
    return openPostgresStorage({ url: ctx.config.DATABASE_URL, logger: ctx.logger.child({ storage: 'postgres' }) });
  },
});
