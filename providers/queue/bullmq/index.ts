import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { QUEUE_CONTRACT_VERSION } from '../../../kernel/contracts/queue.js';

/** Why `value` is not a redis:// URL; never repeats it (it may hold a password). */
function urlProblem(value: string): string | undefined {
  try {
    return ['redis:', 'rediss:'].includes(new URL(value).protocol) ? undefined : 'must use redis: or rediss:';
  } catch {
    return 'is not a valid URL';
  }
}

/**
 * Queue provider `bullmq` (`QUEUE=bullmq`): BullMQ on the Redis server `REDIS_URL` names; `QUEUE_PREFIX` (default
 * `taskloom`) starts every key, so several services may share one Redis. Loads BullMQ only when chosen.
 */
export const bullmqQueue = defineProvider({
  capability: 'queue',
  id: 'bullmq',
  contractVersion: QUEUE_CONTRACT_VERSION,
  configSchema: Type.Object({
    REDIS_URL: Type.Refine(Type.String(), (value) => urlProblem(value) === undefined, (value) => urlProblem(value) ?? ''),
    QUEUE_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', default: 'taskloom', description: 'up to 64 letters, digits, ".", "_" or "-"' }),
  }),
  async create(context) {
    if (!context.config.REDIS_URL) throw new Error('the bullmq queue needs REDIS_URL (redis://host:6379)');
    const { createBullmqQueue } = await import('./bullmq-queue.js');
    return createBullmqQueue({ url: context.config.REDIS_URL, prefix: context.config.QUEUE_PREFIX, logger: context.logger.child({ provider: 'queue/bullmq' }) });
  },
});
