import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  /** Where spans go: an OTLP/HTTP traces URL (`.../v1/traces`). */
  url: string;
  serviceName: string;
  /** How long spans wait to be sent in a batch, ms. */
  scheduleDelayMs: number;
}

/**
 * Starts exporting spans (OTLP over HTTP, JSON), with W3C `traceparent` propagation and the async context that
 * carries the current span across awaits. Resolves to a stop that sends what is left.
 */
export function startTracing(options: TracingOptions): { stop(): Promise<void> } {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url }), { scheduledDelayMillis: options.scheduleDelayMs })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async stop() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

