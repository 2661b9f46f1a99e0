import type { Metrics } from './metrics.js';

export type { Metrics, RunCounts } from './metrics.js';

// The decorator of the metrics plugin (fastify-plugin, name 'taskloom-metrics'), typed for every plugin.
declare module 'fastify' {
  interface FastifyInstance {
    /** This service's Prometheus instruments (its own registry): plugins report through them. */
    metrics: Metrics;
  }
}
