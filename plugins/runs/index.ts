import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import '../credentials/decorators.js';
import '../data/decorators.js';
import '../headful/decorators.js';
import '../instances/decorators.js';
import '../metrics/decorators.js';
import '../settings/decorators.js';
import { createPageCapture } from './page-capture.js';
import { runRoutes } from './routes.js';
import { openRunChannel } from './run-channel.js';
import { createRunService, type RunServiceDeps } from './run-service.js';
import { createTaskRuns } from './task-runs.js';
import type { RunnableTask } from './task-options.js';
import { proxyOptionsOf } from './task-options.js';
import './decorators.js';

export type { RunAnswer } from './live-run.js';
export type { RunOptions, RunService, StartedRun } from './run-service.js';

const PREFIX = '/api';
/** How long running runs may take to finish once shutdown begins, before they are stopped as `interrupted`. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** What a composition root may set on the runs plugin (the built-in one takes the defaults). */
export interface RunsPluginOptions {
  /** The webhook's per-attempt timeout and retry delays (tests shorten them). */
  webhook?: RunServiceDeps['webhook'];
  /** Final records kept while storage is unavailable: how many, and the retry backoff (tests shorten it). */
  finalRecords?: RunServiceDeps['finalRecords'];
  /** How a run a browser grid turns away is queued again (tests shorten it). */
  busyRetry?: RunServiceDeps['busyRetry'];
  /** How often queued runs without a job are looked for, with a shared queue (tests shorten it). */
  reconcileEveryMs?: number;
}

/**
 * Wrapped with fastify-plugin so `app.runs`, `app.taskRuns` and `app.pageCapture` reach every scope (the scheduler, the AI
 * plugin); the routes stay encapsulated under `/api` with their own content-type rule. What a run uses of other
 * plugins (captures, proxies, output targets, the headful and browser sessions, the instance, metrics) they offer
 * as decorators this plugin declares.
 */
async function runs(app: FastifyInstance, options: { prefix?: string }, settings: RunsPluginOptions): Promise<void> {
  const { services, proxyRotation } = app;
  const logger = services.logger.child({ plugin: 'runs' });
  if (services.config.role === 'api' && !services.queue.capabilities.durable) {
    throw new Error(`ROLE=api needs a shared queue (QUEUE=pg-boss or QUEUE=bullmq): with QUEUE=${services.queue.id} no other instance could run its runs`);
  }
  const chooseProxy = (task: RunnableTask) => proxyRotation.forTask(proxyOptionsOf(task));
  // With a shared queue, run events and cancels travel between the instances on its topics (when it has them).
  const channel = services.queue.capabilities.durable ? await openRunChannel(services.queue, logger) : undefined;
  const service = createRunService({
    channel, services, captures: app.captures, proxyRotation, logger, webhook: settings.webhook, finalRecords: settings.finalRecords,
    busyRetry: settings.busyRetry, reconcileEveryMs: settings.reconcileEveryMs,
    outputs: app.outputs, headfulSession: app.headfulSession, browserSessions: app.browserSessions, instance: app.instance, metrics: app.metrics,
  });
  app.metrics.observeRuns(() => service.manager.counts());
  app.decorate('runs', service);
  app.decorate('taskRuns', createTaskRuns(service, services.storage.tasks));
  app.decorate('pageCapture', createPageCapture({ services, chooseProxy, logger }));
  // Once the whole service is up: from then on this instance takes runs off the queue (not with ROLE=api).
  app.addHook('onReady', async () => {
    if (services.config.role !== 'api') await service.startWorker();
    service.startReconciling();
  });
  // Before the server stops listening: in-flight `POST .../api` requests still get their (final) answers.
  app.addHook('preClose', async () => {
    await service.shutdown(SHUTDOWN_GRACE_MS);
    await service.finals.flush(); // records kept through a storage outage: a last try, and a log line for each lost
  });
  app.addHook('onClose', async () => {
    await channel?.stop();
  });
  await app.register(runRoutes, { prefix: options.prefix || PREFIX, service });
}

/**
 * Task runs (`POST /api/tasks/{id}/api`), cancel and live events of executions; `app.runs`, `app.taskRuns` (for the
 * scheduler) and `app.pageCapture` (for generate-selector).
 */
export function createRunsPlugin(settings: RunsPluginOptions = {}) {
  return definePlugin({
    name: 'runs',
    prefix: PREFIX,
    decorates: ['runs', 'taskRuns', 'pageCapture'],
    plugin: fp((app, options: { prefix?: string }) => runs(app, options, settings), {
      name: 'taskloom-runs',
      fastify: '5.x',
      // After the executions plugin: its recovery marks a stopped instance's runs before this one starts new ones.
      dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-executions'],
      decorators: {
        fastify: ['services', 'captures', 'proxyRotation', 'outputs', 'headfulSession', 'browserSessions', 'instance', 'metrics'],
      },
    }),
  });
}

export const runsPlugin = createRunsPlugin();
