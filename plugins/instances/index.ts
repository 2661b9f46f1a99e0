import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { createInstance } from './instance.js';
import './decorators.js';

export { INSTANCE_LEASES_KEY, currentViewer, leaseEnd, validLeases } from './instance-lease.js';

/**
 * Takes this instance's lease (INSTANCE_ID, or a generated id) before any plugin that needs `app.instance` is
 * mounted (executions' recovery, runs, schedules rely on it), renews it while the service runs and ends it at
 * shutdown, so the other instances need not wait for it to lapse. Refuses to start beside a running instance with
 * the same id.
 */
async function instances(app: FastifyInstance): Promise<void> {
  const { storage, logger, config } = app.services;
  const instance = createInstance({ settings: storage.settings, logger, id: config.instanceId });
  await instance.start();
  app.decorate('instance', instance);
  // After the runs ended (their preClose): the others need not wait for the lease to lapse.
  app.addHook('onClose', async () => {
    await instance.stop();
  });
}

export const instancesPlugin = definePlugin({
  name: 'instances',
  decorates: ['instance'],
  plugin: fp(instances, { name: 'taskloom-instances', fastify: '5.x', decorators: { fastify: ['services'] } }),
});
