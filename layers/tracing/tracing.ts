import { context, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';

// The API only (light, a no-op until tracing starts): what the plugins record spans with. The SDK and exporter
// load only when tracing is configured (start-tracing.ts).

/** The tracer every part of the service records its spans with (a no-op until tracing is started). */
export const tracer = () => trace.getTracer('taskloom');

/** The `traceparent` of `ctx` (the active context by default); undefined when no span is recording. */
export function traceparentOf(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** The context a stored or received `traceparent` names (the root context without one). */
export function contextOf(traceparent: string | undefined): Context {
  return traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent });
}
