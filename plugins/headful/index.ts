import net from 'node:net';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import type { HeadfulSession, HeadfulStatus } from './decorators.js';
import { startDisplayStack, type DisplayStack } from './display-stack.js';
import { headfulWithContext } from './headful-context.js';
import { ManagedBrowser } from './managed-browser.js';
import { headfulRoutes } from './routes.js';
import { createBrowserSessions } from './sessions.js';
import { startVncGateway, type VncGateway, type VncRoute } from './vnc-gateway.js';
import { vncPassword } from './vnc-password.js';
import './decorators.js';

export type { BrowserSession, BrowserSessions, HeadfulSession, HeadfulStatus, InspectablePage } from './decorators.js';

const PREFIX = '/api/headful';
/** How long a headful launch waits for the virtual display to come up. */
const DISPLAY_WAIT_MS = 15_000;

/**
 * Wrapped with fastify-plugin so `app.headfulSession` and `app.browserSessions` reach every scope (runs,
 * the browser and inspector endpoints); the status routes stay encapsulated under their prefix.
 */
const settings = Type.Object({
  /** Run the headful session on a virtual display served through noVNC. */
  USE_NOVNC: Type.Boolean({ default: false }),
  NOVNC_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54311 }),
});

async function headful(app: FastifyInstance, options: { prefix?: string; config: Static<typeof settings> }): Promise<void> {
  const { services } = app;
  const { config, storage } = services;
  const { USE_NOVNC: useNovnc, NOVNC_PORT: novncPort } = options.config;
  const logger = services.logger.child({ plugin: 'headful' });
  const password = () => vncPassword(storage.settings);
  let stack: DisplayStack | undefined;
  let gateway: VncGateway | undefined;
  let vncRoute: VncRoute | undefined;
  const managed = new ManagedBrowser({ services, logger, display: async () => stack?.display(DISPLAY_WAIT_MS) });
  const status = (): HeadfulStatus =>
    useNovnc ? { useNovnc: true, novncPort, isRunning: stack?.isRunning() ?? false } : { useNovnc: false };
  const headfulSession: HeadfulSession = {
    withContext: headfulWithContext(() => managed.open(false)),
    status,
    vncPassword: password,
    routeVnc(route) {
      vncRoute = route;
      gateway?.route(route);
    },
    connectVnc() {
      const port = stack?.vncPort();
      return port === undefined ? undefined : net.connect(port, '127.0.0.1');
    },
  };
  app.decorate('headfulSession', headfulSession);
  app.decorate('browserSessions', createBrowserSessions(managed));
  // Started once the whole service is built, so a failed start-up leaves no helper process behind.
  app.addHook('onReady', async () => {
    if (!useNovnc) return;
    gateway = await startVncGateway(() => stack?.vncPort(), logger);
    if (vncRoute) gateway.route(vncRoute);
    stack = startDisplayStack({
      novncPort, host: config.host, password, stateDir: path.join(config.dataDir, 'headful'), logger, viewerPort: gateway.port,
    });
  });
  app.addHook('onClose', async () => {
    await managed.close(); // the browser first: it is a client of the display
    await stack?.stop();
    await gateway?.close();
  });
  await app.register(headfulRoutes, { prefix: options.prefix || PREFIX, headful: headfulSession });
}

/** The headful session: virtual display, VNC and noVNC (USE_NOVNC), the managed browser; `app.headfulSession`, `app.browserSessions`. */
export const headfulPlugin = definePlugin({
  name: 'headful',
  prefix: PREFIX,
  decorates: ['headfulSession', 'browserSessions'],
  configSchema: settings,
  plugin: fp(headful, {
    name: 'taskloom-headful',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services'] },
  }),
});
