import type { PluginDefinition, TaskloomModule } from '../kernel/registry.js';
import { browserPool } from '../layers/browser-pool/index.js';
import { sealedStorage } from '../layers/sealed-storage/index.js';
import { anthropicAi } from '../providers/ai/anthropic/index.js';
import { ollamaAi } from '../providers/ai/ollama/index.js';
import { openAiCompatibleAi } from '../providers/ai/openai-compatible/index.js';
import { localAuth } from '../providers/auth/local/index.js';
import { playwrightBrowser } from '../providers/browser/playwright/index.js';
import { puppeteerBrowser } from '../providers/browser/puppeteer/index.js';
import { tablestoreOutput } from '../providers/output/tablestore/index.js';
import { taskApiCaptcha } from '../providers/captcha/task-api/index.js';
import { breeScheduler } from '../providers/scheduler/bree/index.js';
import { bullmqScheduler } from '../providers/scheduler/bullmq/index.js';
import { pgBossScheduler } from '../providers/scheduler/pg-boss/index.js';
import { diskBlobStore } from '../providers/blob/disk/index.js';
import { postgresBlobStore } from '../providers/blob/postgres/index.js';
import { s3BlobStore } from '../providers/blob/s3/index.js';
import { gridfsBlobStore } from '../providers/blob/gridfs/index.js';
import { bullmqQueue } from '../providers/queue/bullmq/index.js';
import { memoryQueue } from '../providers/queue/memory/index.js';
import { pgBossQueue } from '../providers/queue/pg-boss/index.js';
import { jsonStorage } from '../providers/storage/json/index.js';
import { mongodbStorage } from '../providers/storage/mongodb/index.js';
import { postgresStorage } from '../providers/storage/postgres/index.js';
import { accessPlugin, apiKeysPlugin } from '../plugins/access/index.js';
import { aiPlugin } from '../plugins/ai/index.js';
import { allowedHostsPlugin } from '../plugins/allowed-hosts/index.js';
import { jsonDepthPlugin } from '../plugins/json-depth/index.js';
import { authPlugin } from '../plugins/auth/index.js';
import { browserSessionsPlugin } from '../plugins/browser-sessions/index.js';
import { browserStatesPlugin } from '../plugins/browser-states/index.js';
import { captchaPlugin } from '../plugins/captcha/index.js';
import { credentialsPlugin } from '../plugins/credentials/index.js';
import { dataPlugin } from '../plugins/data/index.js';
import { executionsPlugin } from '../plugins/executions/index.js';
import { headfulPlugin } from '../plugins/headful/index.js';
import { healthPlugin } from '../plugins/health/index.js';
import { inspectorPlugin } from '../plugins/inspector/index.js';
import { instancesPlugin } from '../plugins/instances/index.js';
import { httpMetricsPlugin, metricsPlugin } from '../plugins/metrics/index.js';
import { monitorsPlugin } from '../plugins/monitors/index.js';
import { openapiPlugin } from '../plugins/openapi/index.js';
import { portabilityPlugin } from '../plugins/portability/index.js';
import { retentionPlugin } from '../plugins/retention/index.js';
import { runsPlugin } from '../plugins/runs/index.js';
import { schedulesPlugin } from '../plugins/schedules/index.js';
import { settingsPlugin } from '../plugins/settings/index.js';
import { studioPlugin } from '../plugins/studio/index.js';
import { tasksPlugin } from '../plugins/tasks/index.js';
import { webPlugin } from '../plugins/web/index.js';
import { tracingPlugin } from '../plugins/tracing/index.js';
import { webhooksPlugin } from '../plugins/webhooks/index.js';

/**
 * The providers that ship with taskloom: the choices of each capability (STORAGE, BROWSER_ENGINE, ...), and the
 * layers every choice is wrapped in (secrets sealed over the storage, the browser pool over the engine). Third
 * parties add theirs through TASKLOOM_MODULES, and are loaded exactly as these are.
 */
export const providers: NonNullable<TaskloomModule['providers']> = [
  sealedStorage, browserPool,
  jsonStorage, postgresStorage, mongodbStorage,
  localAuth,
  playwrightBrowser, puppeteerBrowser,
  openAiCompatibleAi, anthropicAi, ollamaAi,
  tablestoreOutput,
  taskApiCaptcha,
  breeScheduler, pgBossScheduler, bullmqScheduler,
  diskBlobStore, postgresBlobStore, gridfsBlobStore, s3BlobStore,
  memoryQueue, pgBossQueue, bullmqQueue,
];

/**
 * The plugins that ship with taskloom. In no particular order: the kernel mounts each after what it declares it
 * needs (kernel/plugin-order.ts).
 */
export const plugins: PluginDefinition[] = [
  // First: a rebound host name is refused before any other plugin's hook reads the request.
  allowedHostsPlugin, jsonDepthPlugin, accessPlugin, apiKeysPlugin, aiPlugin, authPlugin, browserSessionsPlugin, browserStatesPlugin, captchaPlugin, credentialsPlugin, dataPlugin, executionsPlugin, headfulPlugin,
  healthPlugin, httpMetricsPlugin, inspectorPlugin, instancesPlugin, metricsPlugin, monitorsPlugin, openapiPlugin, portabilityPlugin,
  retentionPlugin, tracingPlugin, webhooksPlugin, runsPlugin, schedulesPlugin, settingsPlugin, studioPlugin, tasksPlugin, webPlugin,
];

/** The service as it ships: one module holding every built-in provider and plugin. */
export const builtIns: TaskloomModule = { providers, plugins };
