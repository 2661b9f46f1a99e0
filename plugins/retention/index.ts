import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import '../data/decorators.js';
import { retentionRoutes } from './routes.js';
import { MAX_RETENTION_DAYS } from './schemas.js';
import { createRetention } from './service.js';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Prunes executions, and their captures (the data plugin's `app.captures`), older than the retention: once the
 * service is ready, then hourly. A failed prune is logged and tried again at the next hour; it never stops the
 * service.
 */
const settings = Type.Object({
  /** Executions (and their captures) started more than this many days ago are pruned; 0 keeps them forever. */
  RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS, default: 0 }),
});

async function retention(app: FastifyInstance, options: { config: Static<typeof settings> }): Promise<void> {
  const { storage, logger } = app.services;
  const envDays = options.config.RETENTION_DAYS;
  const log = logger.child({ plugin: 'retention' });
  const service = createRetention({
    executions: storage.executions, settings: storage.settings, captures: app.captures, blob: app.services.blob, logger: log, envDays,
  });
  const prune = async () => {
    try {
      await service.prune();
    } catch (error) {
      log.error({ err: error }, 'pruning old executions failed; trying again in an hour');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const { days, source } = await service.policy().catch(() => ({ days: envDays, source: 'environment' }));
    log.info({ days, source }, days === 0 ? 'executions are kept forever' : `executions are kept for ${days} days`);
    await prune();
    timer = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
  await app.register(retentionRoutes, { retention: service });
}

/** `GET/POST /api/settings/retention` and the pruning of old executions. */
export const retentionPlugin = definePlugin({
  name: 'retention',
  prefix: '/api/settings',
  configSchema: settings,
  plugin: fp(retention, {
    name: 'taskloom-retention', fastify: '5.x', encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services', 'captures'] },
  }),
});
