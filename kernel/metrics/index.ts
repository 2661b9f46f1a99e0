// Prometheus instruments for the service (`services.metrics`); the metrics plugin serves them.
export { createMetrics, type HttpRequestSample, type Metrics, type RunCounts } from './metrics.js';
export { default as httpMetrics, UNMATCHED_ROUTE } from './http-metrics.js';
