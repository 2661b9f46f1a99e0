import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { BLOB_CONTRACT_VERSION } from '../../../kernel/contracts/blob.js';

/** A postgres:// URL; the message never repeats the value (it holds the password). */
const databaseUrl = Type.Refine(Type.String(), (value) => {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, () => 'must be a postgres:// or postgresql:// URL');

/**
 * Blob store `postgres` (`BLOB_STORE=postgres`): blobs in tables of the DATABASE_URL database, so every instance
 * sharing it sees the same captures. The implementation (and `pg`) loads only when this store is chosen.
 */
export const postgresBlobStore = defineProvider({
  capability: 'blob',
  id: 'postgres',
  contractVersion: BLOB_CONTRACT_VERSION,
  configSchema: Type.Object({ DATABASE_URL: databaseUrl }),
  create: async (ctx) => {
    // The registry checked it; a direct create (a test, a tool) may still come without.
    if (!ctx.config.DATABASE_URL) throw new Error('the postgres blob store needs DATABASE_URL (postgres://user:password@host:5432/database)');
    const { openPostgresBlobStore } = await import('./postgres-blob-store.js');
    return openPostgresBlobStore({ url: ctx.config.DATABASE_URL, logger: ctx.logger.child({ blob: 'postgres' }) });
  },
});
