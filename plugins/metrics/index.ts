import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import { Type } from 'typebox';

/** `GET /api/metrics`: this service's registry in the Prometheus text format. */
async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { metrics } = app.services;
  app.get('/metrics', {
    config: { auth: 'authenticated' },
    schema: {
      tags: ['operations'],
      summary: 'Prometheus metrics (text exposition format): runs, queue, browser contexts, HTTP latency, process',
      operationId: 'getMetrics',
      response: {
        200: { description: 'The Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
      },
    },
  }, async (_request, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

/** Prometheus metrics under `/api/metrics`, for a session or the API key (`Authorization: Bearer <key>`). */
export const metricsPlugin = definePlugin({ name: 'metrics', prefix: '/api', plugin: metricsRoutes });
