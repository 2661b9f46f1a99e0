import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { QUEUE_CONTRACT_VERSION } from '../../../kernel/contracts/queue.js';

/** Why `value` is not a postgres:// URL; never repeats it (it may hold a password). */
function urlProblem(value: string): string | undefined {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(value).protocol) ? undefined : 'must use postgres: or postgresql:';
  } catch {
    return 'is not a valid URL';
  }
}

/**
 * Queue provider `pg-boss` (`QUEUE=pg-boss`): pg-boss 10 in the schema `pgboss` of the database `DATABASE_URL`
 * names (the service's own, with STORAGE=postgres). Loads pg-boss only when chosen.
 */
export const pgBossQueue = defineProvider({
  capability: 'queue',
  id: 'pg-boss',
  contractVersion: QUEUE_CONTRACT_VERSION,
  configSchema: Type.Object({
    DATABASE_URL: Type.Refine(Type.String(), (value) => urlProblem(value) === undefined, (value) => urlProblem(value) ?? ''),
  }),
  async create(context) {
    if (!context.config.DATABASE_URL) throw new Error('the pg-boss queue needs DATABASE_URL (postgres://user:password@host:5432/database)');
    const { createPgBossQueue } = await import('./pg-boss-queue.js');
    return createPgBossQueue({ url: context.config.DATABASE_URL, logger: context.logger.child({ provider: 'queue/pg-boss' }) });
  },
});
