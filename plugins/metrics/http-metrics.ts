import type { onResponseHookHandler } from 'fastify';
import type { Metrics } from './metrics.js';

/** Requests no route matched share one label value, so stray URLs cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Times every request into `metrics` by method, route pattern and status code. */
export function httpMetrics(metrics: Metrics): onResponseHookHandler {
  return (request, reply, done) => {
    metrics.httpRequest({
      method: request.method,
      route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  };
}
