import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import { httpMetrics } from './http-metrics.js';
import { createMetrics, type Metrics } from './metrics.js';
import './decorators.js';

const PREFIX = '/api';

/** `GET /api/metrics`: this service's registry in the Prometheus text format. */
async function metricsRoutes(app: FastifyInstance, options: { metrics: Metrics }): Promise<void> {
  app.get('/metrics', {
    config: { auth: 'authenticated', access: 'read' },
    schema: {
      tags: ['operations'],
      summary: 'Prometheus metrics (text exposition format): runs, queue, browser contexts, HTTP latency, process',
      operationId: 'getMetrics',
      response: {
        200: { description: 'The Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
      },
    },
  }, async (_request, reply) => {
    const { contentType, body } = await options.metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

/**
 * The instruments (`app.metrics`, for every scope: the runs report through them), the timing of every request and
 * the browser contexts the pool holds open. It observes every route (its hook must be there before routes are
 * added), so it adds none itself: a route added here would come before the API description sees routes.
 */
async function httpMetricsObserver(app: FastifyInstance): Promise<void> {
  const instruments = createMetrics();
  instruments.observeBrowserContexts(() => app.services.browser.openContexts());
  app.decorate('metrics', instruments);
  app.addHook('onResponse', httpMetrics(instruments));
}

export const httpMetricsPlugin = definePlugin({
  name: 'http-metrics',
  decorates: ['metrics'],
  observesRoutes: true,
  plugin: fp(httpMetricsObserver, {
    name: 'taskloom-http-metrics', fastify: '5.x', dependencies: ['taskloom-route-policy'], decorators: { fastify: ['services'] },
  }),
});

/** Prometheus metrics under `/api/metrics`, for a session or the API key (`Authorization: Bearer <key>`). */
export const metricsPlugin = definePlugin({
  name: 'metrics',
  prefix: PREFIX,
  plugin: fp(async (app: FastifyInstance, options: { prefix?: string }) => {
    await app.register(metricsRoutes, { prefix: options.prefix || PREFIX, metrics: app.metrics });
  }, { name: 'taskloom-metrics', fastify: '5.x', dependencies: ['taskloom-route-policy'], decorators: { fastify: ['metrics'] } }),
});
