import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { createHostRule, hostRefusal, hostsNamedBy } from '../../layers/allowed-hosts/host-rule.js';

/** Refuses, before any route runs, a request naming a host (Host, X-Forwarded-Host with TRUST_PROXY) not allowed. */
async function allowedHosts(app: FastifyInstance): Promise<void> {
  const rule = createHostRule(app.services.config);
  const { trustProxy } = app.services.config;
  app.addHook('onRequest', async (request) => {
    const refusal = hostRefusal(rule, hostsNamedBy(request.headers, trustProxy));
    if (refusal) throw refusal;
  });
}

/** The DNS-rebinding guard (ALLOWED_HOSTS): an observer of every route, mounted first of all plugins. */
export const allowedHostsPlugin = definePlugin({
  name: 'allowed-hosts',
  observesRoutes: true,
  plugin: fp(allowedHosts, { name: 'taskloom-allowed-hosts', fastify: '5.x', decorators: { fastify: ['services'] } }),
});
