import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import { listenUrl } from './advertised-url.js';
import { createInstance } from './instance.js';
import './decorators.js';

export { INSTANCE_LEASES_KEY, currentViewer, leaseEnd, validLeases } from './instance-lease.js';

/**
 * Takes this instance's lease (INSTANCE_ID, or a generated id) before any plugin that needs `app.instance` is
 * mounted (executions' recovery, runs, schedules rely on it), renews it while the service runs and ends it at
 * shutdown, so the other instances need not wait for it to lapse. Refuses to start beside a running instance with
 * the same id.
 */
const settings = Type.Object({
  /** Names this instance among those sharing one database; unset: generated at start. */
  INSTANCE_ID: Type.Optional(Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
    description: 'up to 64 letters, digits, ".", "_" or "-" (it shows up in logs and storage keys)',
  })),
  /** Where the other instances reach this one (browser sessions held here); unset: the address it listens on. */
  INSTANCE_URL: Type.Optional(Type.String({
    pattern: '^https?://[^/?#\\s]+/?$',
    description: 'an http:// or https:// base URL without a path (e.g. http://10.0.0.11:11345)',
  })),
});

async function instances(app: FastifyInstance, options: { config: Static<typeof settings> }): Promise<void> {
  const { storage, logger } = app.services;
  const clock = storage.clock ? () => storage.clock!() : undefined;
  const instance = createInstance({ settings: storage.settings, logger, id: options.config.INSTANCE_ID, ...(clock ? { clock } : {}) });
  await instance.start();
  app.decorate('instance', instance);
  // Once listening, the port is known (PORT=0 picks one): the others then learn where to reach this instance.
  app.addHook('onListen', async () => {
    const url = options.config.INSTANCE_URL?.replace(/\/$/, '') ?? listenUrl(app.server.address());
    if (url) await instance.advertise(url).catch((error: unknown) => logger.warn({ err: error }, 'advertising this instance\'s URL failed; the next lease renewal carries it'));
  });
  // After the runs ended (their preClose): the others need not wait for the lease to lapse.
  app.addHook('onClose', async () => {
    await instance.stop();
  });
}

export const instancesPlugin = definePlugin({
  name: 'instances',
  decorates: ['instance'],
  configSchema: settings,
  plugin: fp(instances, { name: 'taskloom-instances', fastify: '5.x', decorators: { fastify: ['services'] } }),
});
