import { context, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { tracer } from '../../layers/tracing/tracing.js';

/**
 * A run's spans (README "Tracing"): `run` from the request that queued it to its end, `queue wait` until a worker
 * takes it, `browse` while the browser works (with `browser acquire`, each `action` and each `capture`), `output push`. No-ops while tracing is off. In-process only: a run another instance
 * takes starts a trace of its own there.
 */
export interface RunTrace {
  /** The run span's context: what the run's end (events, webhook) is published in. */
  context: Context;
  started(): void;
  /** The browser context is being acquired (`browser acquire`), then it is there. */
  acquiring(): void;
  acquired(): void;
  /** Action `index` begins (`action`, with its type and index); the previous one ends. */
  action(index: number, type: string): void;
  /** Runs `work` as a child span `name` of the run (captures, the output push). */
  step<T>(name: string, work: () => Promise<T>): Promise<T>;
  browsed(status: string): void;
  ended(status: string): void;
}

export function startRunTrace(executionId: string, taskId: string): RunTrace {
  const parent = context.active();
  const run = tracer().startSpan('run', { attributes: { 'taskloom.execution_id': executionId, 'taskloom.task_id': taskId } }, parent);
  const runContext = trace.setSpan(parent, run);
  const queued: Span = tracer().startSpan('queue wait', {}, runContext);
  let browse: Span | undefined;
  let acquire: Span | undefined;
  let action: Span | undefined;
  const under = () => (browse ? trace.setSpan(runContext, browse) : runContext);
  return {
    context: runContext,
    started() {
      queued.end();
      browse = tracer().startSpan('browse', {}, runContext);
    },
    acquiring() {
      acquire = tracer().startSpan('browser acquire', {}, under());
    },
    acquired() {
      acquire?.end();
      acquire = undefined;
    },
    action(index, type) {
      action?.end();
      action = tracer().startSpan('action', { attributes: { 'taskloom.action.index': index, 'taskloom.action.type': type } }, under());
    },
    async step(name, work) {
      const span = tracer().startSpan(name, {}, under());
      try {
        return await work();
      } finally {
        span.end();
      }
    },
    browsed(status) {
      action?.end();
      action = undefined;
      this.acquired();
      browse?.setAttribute('taskloom.status', status);
      browse?.end();
      browse = undefined;
    },
    ended(status) {
      queued.end();
      this.browsed(status);
      run.setAttribute('taskloom.status', status);
      if (status !== 'success') run.setStatus({ code: SpanStatusCode.ERROR, message: status });
      run.end();
    },
  };
}
