import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import { createTaskFiles } from '../../layers/task-files/index.js';
import '../credentials/decorators.js';
import '../data/decorators.js';
import '../headful/decorators.js';
import '../instances/decorators.js';
import '../metrics/decorators.js';
import '../captcha/decorators.js';
import '../settings/decorators.js';
import { eventsOf } from '../../layers/events/event-bus.js';
import { healingStoreOf } from '../../layers/healing/index.js';
import { AdmissionSettings, createAdmission } from './admission.js';
import { capabilitiesRoute } from './capabilities-route.js';
import { retryAfterOnQueueFull } from './queue-full-header.js';
import { createRunHealing } from './healing/run-healing.js';
import { createPageCapture } from './page-capture.js';
import { runRoutes } from './routes.js';
import { openRunChannel } from './run-channel.js';
import { createRunService, type RunServiceDeps } from './run-service.js';
import { createTaskRuns } from './task-runs.js';
import type { RunnableTask } from './task-options.js';
import { proxyOptionsOf } from './task-options.js';
import { DEFAULT_DOWNLOAD_MAX_BYTES } from './run-files.js';
import { DEFAULT_RESULT_INLINE_MAX_BYTES } from '../../layers/stored-results/result-blobs.js';
import './decorators.js';
import '../browser-states/decorators.js';

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

const config = Type.Object({
  ...AdmissionSettings.properties,
  /** A download action's file beyond this many bytes fails the action (README "Downloads"). */
  DOWNLOAD_MAX_BYTES: Type.Integer({ minimum: 1, maximum: 16 * 1024 ** 3, default: DEFAULT_DOWNLOAD_MAX_BYTES }),
  /** A run's result whose JSON is larger is stored apart from its execution record (README "Large results"). */
  RESULT_INLINE_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 1024 ** 3, default: DEFAULT_RESULT_INLINE_MAX_BYTES }),
});
type RunsOptions = { prefix?: string; config: Static<typeof config> };

/**
 * Wrapped with fastify-plugin so `app.runs`, `app.taskRuns` and `app.pageCapture` reach every scope (the scheduler, the AI
 * plugin); the routes stay encapsulated under `/api` with their own content-type rule. What a run uses of other
 * plugins (captures, proxies, output targets, the headful and browser sessions, the instance, metrics) they offer
 * as decorators this plugin declares.
 */
async function runs(app: FastifyInstance, options: RunsOptions, settings: RunsPluginOptions): Promise<void> {
  const { services, proxyRotation } = app;
  const logger = services.logger.child({ plugin: 'runs' });
  if (services.config.role === 'api' && !services.queue.capabilities.durable) {
    throw new Error(`ROLE=api needs a shared queue (QUEUE=pg-boss or QUEUE=bullmq): with QUEUE=${services.queue.id} no other instance could run its runs`);
  }
  const chooseProxy = (task: RunnableTask) => proxyRotation.forTask(proxyOptionsOf(task));
  // With a shared queue, run events and cancels travel between the instances on its topics (when it has them).
  const channel = services.queue.capabilities.durable ? await openRunChannel(services.queue, logger) : undefined;
  const healing = createRunHealing({
    store: healingStoreOf(services.storage), tasks: services.storage.tasks, logger, aiCalled: (calls) => app.metrics.aiCalls(calls),
  });
  const admission = createAdmission({
    config: services.config, settings: options.config, browser: services.browser, shared: services.queue.capabilities.durable, logger,
    counts: () => service.manager.counts(),
    storedQueued: () => services.storage.executions.count({ status: 'queued' }),
    signalOf: (executionId) => service.manager.get(executionId)?.controller.signal,
  });
  const service = createRunService({
    admission, channel, services, captures: app.captures, proxyRotation, logger, webhook: settings.webhook, finalRecords: settings.finalRecords,
    busyRetry: settings.busyRetry, reconcileEveryMs: settings.reconcileEveryMs, resultInlineMaxBytes: options.config.RESULT_INLINE_MAX_BYTES, eventBus: eventsOf(app),
    outputs: app.outputs, headfulSession: app.headfulSession, browserSessions: app.browserSessions, instance: app.instance, metrics: app.metrics,
    captcha: app.hasDecorator('captchaSolver') ? app.captchaSolver : null,
    healing,
    browserStates: () => (app.hasDecorator('browserStates') ? app.browserStates : undefined),
    files: { taskFiles: createTaskFiles(services.blob), downloadMaxBytes: options.config.DOWNLOAD_MAX_BYTES },
    // `execution.awaiting_human`: the event holds the handoff path with its token, so it is never logged.
    onAwaitingHuman: (event) => {
      logger.info({ executionId: event.executionId, reason: event.reason, expiresAt: event.expiresAt }, 'a run waits for a person');
      void eventsOf(app).publish({ type: 'execution.awaiting_human', taskId: event.taskId, data: { ...event } });
    },
  });
  app.metrics.observeRuns(() => service.manager.counts());
  retryAfterOnQueueFull(app);
  app.decorate('runs', service);
  app.decorate('taskRuns', createTaskRuns(service, services.storage.tasks));
  app.decorate('pageCapture', createPageCapture({ services, chooseProxy, logger }));
  app.decorate('runHealing', healing);
  // A repair proposed or applied is an event for webhook subscriptions (README "Healing", "Webhooks and events").
  healing.events.on('repair', ({ type, taskId, executionId, repair }) => {
    void eventsOf(app).publish({ type, taskId, data: { taskId, executionId, repair } });
  });
  // Once the whole service is up: from then on this instance takes runs off the queue (not with ROLE=api).
  app.addHook('onReady', async () => {
    if (services.config.role !== 'api') await service.startWorker();
    admission.start();
    service.startReconciling();
  });
  // Before the server stops listening: in-flight `POST .../api` requests still get their (final) answers.
  app.addHook('preClose', async () => {
    await service.shutdown(SHUTDOWN_GRACE_MS);
    await service.finals.flush(); // records kept through a storage outage: a last try, and a log line for each lost
  });
  app.addHook('onClose', async () => {
    admission.stop();
    await channel?.stop();
  });
  await app.register(runRoutes, { prefix: options.prefix || PREFIX, service });
  await app.register(capabilitiesRoute, { prefix: options.prefix || PREFIX, admission });
}

/**
 * Task runs (`POST /api/tasks/{id}/api`), cancel and live events of executions; `app.runs`, `app.taskRuns` (for the
 * scheduler) and `app.pageCapture` (for generate-selector).
 */
export function createRunsPlugin(settings: RunsPluginOptions = {}) {
  return definePlugin({
    name: 'runs',
    prefix: PREFIX,
    decorates: ['runs', 'taskRuns', 'pageCapture', 'runHealing'],
    // Events and completion webhooks go through the webhooks plugin's `app.events` when there is one.
    uses: ['captchaSolver', 'events', 'browserStates'],
    configSchema: config,
    plugin: fp((app, options: RunsOptions) => runs(app, options, settings), {
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
