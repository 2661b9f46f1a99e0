import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Requests no route matched share one label value, so stray URLs cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Times every request into `services.metrics` by method, route pattern and status code. */
async function httpMetrics(app: FastifyInstance): Promise<void> {
  const { metrics } = app.services;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest({
      method: request.method,
      route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}

export default fp(httpMetrics, { name: 'taskloom-http-metrics', decorators: { fastify: ['services'] } });
