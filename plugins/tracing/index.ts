import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { definePlugin } from '../../kernel/plugin.js';
import { tracer } from '../../layers/tracing/tracing.js';

/** The standard OpenTelemetry variables this service reads; tracing is off unless an OTLP endpoint is named. */
const settings = Type.Object({
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ description: 'an OTLP/HTTP base URL; spans go to <it>/v1/traces' })),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(Type.String({ description: 'the OTLP/HTTP traces URL itself' })),
  OTEL_TRACES_EXPORTER: Type.String({ default: 'otlp', description: 'otlp or none' }),
  OTEL_SDK_DISABLED: Type.Boolean({ default: false }),
  OTEL_SERVICE_NAME: Type.String({ default: 'taskloom' }),
  OTEL_BSP_SCHEDULE_DELAY: Type.Integer({ minimum: 0, maximum: 60_000, default: 5_000 }),
});
type Settings = Static<typeof settings>;

function tracesUrl(config: Settings): string | undefined {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER !== 'otlp') return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return config.OTEL_EXPORTER_OTLP_ENDPOINT && `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span, while tracing is on. */
    traceSpan?: Span;
  }
}

/**
 * OpenTelemetry tracing: each request is a server span (continuing an incoming `traceparent`), and what the
 * request starts (a run, its webhook) runs in its context, so one run is one trace. Off unless configured.
 */
async function tracing(app: FastifyInstance, options: { config: Settings }): Promise<void> {
  const url = tracesUrl(options.config);
  if (!url) return;
  const logger = app.services.logger.child({ plugin: 'tracing' });
  // The SDK loads only now: a service without tracing never pays for it at start-up.
  const { startTracing } = await import('../../layers/tracing/start-tracing.js');
  const tracingOn = startTracing({ url, serviceName: options.config.OTEL_SERVICE_NAME, scheduleDelayMs: options.config.OTEL_BSP_SCHEDULE_DELAY });
  logger.info({ target: new URL(url).origin }, 'tracing: spans are exported over OTLP/HTTP');
  app.decorateRequest('traceSpan', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer().startSpan(`${request.method} ${request.routeOptions.url ?? 'unknown route'}`, {
      kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] },
    }, parent);
    request.traceSpan = span;
    // Logs of the request carry its trace id.
    request.log = request.log.child({ traceId: span.spanContext().traceId });
    // The rest of the request (and what it starts) runs in the span's context.
    context.with(trace.setSpan(parent, span), done);
  });
  // Reading the body leaves the context (stream events): the handler gets it back.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = request.traceSpan;
    if (span) context.with(trace.setSpan(context.active(), span), done);
    else done();
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.traceSpan;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  app.addHook('onClose', async () => {
    await tracingOn.stop();
  });
}

export const tracingPlugin = definePlugin({
  name: 'tracing',
  configSchema: settings,
  observesRoutes: true,
  plugin: fp(tracing, { name: 'taskloom-tracing', fastify: '5.x', decorators: { fastify: ['services'] } }),
});
