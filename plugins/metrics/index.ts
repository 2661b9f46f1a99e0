import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import { ErrorBody } from '../../kernel/http/error-body.js';

/** `GET /api/metrics`: this service's registry in the Prometheus text format. */
async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { metrics } = app.services;
  app.get('/metrics', {
    config: { auth: 'authenticated' },
    schema: {
      tags: ['operations'],
      summary: 'Prometheus metrics (text exposition format): runs, queue, browser contexts, HTTP latency, process',
      produces: ['text/plain'],
      response: { 401: ErrorBody },
    },
  }, async (_request, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

/** Prometheus metrics under `/api/metrics`, for a session or the API key (`Authorization: Bearer <key>`). */
export const metricsPlugin = definePlugin({ name: 'metrics', prefix: '/api', plugin: metricsRoutes });
