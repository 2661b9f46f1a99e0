import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import type { KernelConfig } from './config.js';
import { withoutBrowsers } from './api-role.js';
import type { BlobStore } from './contracts/blob.js';
import type { JobQueue } from './contracts/queue.js';
import { createAiSlots, createOutputTargets } from './capabilities.js';
import { createLogger } from './logger.js';
import { createOutboundClient, createOutboundGuard, type OutboundGuardOptions } from './outbound/index.js';
import { checkConfig, readModuleConfig } from './module-config.js';
import { orderPlugins } from './plugin-order.js';
import type { Registry } from './registry.js';
import type { KernelServices } from './services.js';
import { errorBody } from './http/error-body.js';
import errorHandler from './http/error-handler.js';
import requestId, { REQUEST_ID_HEADER, requestIdFor } from './http/request-id.js';
import routePolicy from './http/route-policy.js';
import { schemaController } from './http/schema-compilers.js';
import lazyValidation from './http/validator.js';
import './http/types.js';

export interface Service {
  app: FastifyInstance;
  services: KernelServices;
  /** Stops accepting, lets in-flight work finish or mark itself, closes storage. Idempotent. */
  close(): Promise<void>;
}

export interface CreateServiceOptions {
  /** The providers and plugins to build the service from (a composition root fills it: app/service.ts). */
  registry: Registry;
  /** Name resolution and extra allowed addresses for the outbound guard (tests reach local pages with the rule on). */
  outbound?: Pick<OutboundGuardOptions, 'lookup' | 'allowAddress'>;
}

const BODY_LIMIT = 5 * 1024 * 1024;

/** config -> registry -> capabilities -> plugins. Does not listen. */
export async function createService(config: KernelConfig, options: CreateServiceOptions): Promise<Service> {
  const { registry } = options;
  checkConfig(config, registry);
  const plugins = orderPlugins(registry.plugins());
  const logger = createLogger(config);

  const shutdown = new AbortController();
  const guard = createOutboundGuard({ ...options.outbound, allowPrivateNetworks: config.allowPrivateNetworks });
  const outbound = { guard, client: createOutboundClient(guard) };
  const context = { config, logger, outbound, signal: shutdown.signal };
  registry.configure(context);
  // Through the storage layer (secrets sealed at rest, for every provider): a wrong key stops the start here.
  const storage = await registry.service('storage', config.storage);
  registry.configure({ ...context, storage });
  let app: FastifyInstance | undefined;
  let blob: BlobStore | undefined;
  let queue: JobQueue | undefined;
  let services: KernelServices | undefined;
  try {
    blob = await registry.service('blob', config.blobStore);
    const sessionSecret = config.sessionSecret ??
      (await storage.settings.update<string>('sessionSecret', (current) => current ?? crypto.randomBytes(32).toString('hex')));
    const browser = await registry.service('browser', config.browserEngine);
    const auth = await registry.service('auth', config.authProvider);
    const ai = await createAiSlots(registry, config.aiSlots);
    // The queue before the scheduler, which may hand its fires to it (SCHEDULER=pg-boss, bullmq); nothing after
    // these two can fail and leave them open.
    queue = await registry.service('queue', config.queue);
    registry.configure({ ...context, storage, queue });
    const scheduler = await registry.service('scheduler', config.scheduler);
    registry.configure({ ...context, storage });
    services = {
      config, registry, logger, storage, outbound, startedAtMs: Date.now(), shutdownSignal: shutdown.signal,
      sharedKey: (purpose) => crypto.createHmac('sha256', sessionSecret).update(`taskloom shared key: ${purpose}`).digest(),
      auth,
      browser: config.role === 'api' ? withoutBrowsers(browser) : browser,
      scheduler,
      blob,
      ai,
      queue,
      output: createOutputTargets(registry),
    };

    app = Fastify({
      loggerInstance: logger,
      bodyLimit: BODY_LIMIT,
      trustProxy: config.trustProxy,
      // A sane incoming X-Request-Id is kept (requestIdFor checks it), so requestIdHeader stays off.
      requestIdHeader: false,
      genReqId: (req) => requestIdFor(req as IncomingMessage),
      // Also bounds the close hooks: the runs plugin's preClose gives running runs 10 s to finish (plus their
      // stop and webhooks), within main.ts's 30 s; Fastify's default (10 s) would end shutdown with an error.
      pluginTimeout: 25_000,
      // Ids in paths may be up to 256 characters; longer ones meet the not-found handler.
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
      // TypeBox validates (Ajv never loads); validators and serializers compile on their route's first use.
      schemaController,
      frameworkErrors: (error, request, reply) => {
        void (reply as FastifyReply).status(400).header(REQUEST_ID_HEADER, request.id)
          .send(errorBody('VALIDATION_ERROR', error.message, request.id));
      },
    }) as unknown as FastifyInstance;
    app.decorate('services', services);
    await app.register(requestId);
    await app.register(lazyValidation);
    await app.register(cookie, { secret: sessionSecret });
    await app.register(errorHandler);
    await app.register(routePolicy);
    for (const plugin of plugins) {
      const settings = plugin.configSchema ? { config: readModuleConfig(plugin, config.variables, { required: true }) } : {};
      await app.register(plugin.plugin, { prefix: plugin.prefix ?? '', ...settings });
    }
    await app.ready();

    const ready = app;
    const built = services;
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        shutdown.abort();
        try {
          await ready.close();
        } finally {
          await built.browser.close(); // before storage: runs ending now still save their cookies
          await built.scheduler.stop(); // idempotent: the schedules plugin stopped it as shutdown began
          await built.queue.stop(); // after the runs plugin stopped its worker: queued jobs stay queued
          await outbound.client.close();
          await built.blob.close();
          await storage.close();
        }
      })();
      return closing;
    };
    return { app: ready, services: built, close };
  } catch (error) {
    // What the plugins started (the instance lease, helper processes) ends with their close hooks.
    await app?.close().catch(() => undefined);
    await queue?.stop().catch(() => undefined);
    await blob?.close().catch(() => undefined);
    await storage.close();
    throw error;
  }
}
