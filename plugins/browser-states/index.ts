import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import { Errors } from '../../kernel/errors.js';
import { BROWSER_STATE_KEY_PURPOSE, createBrowserStates } from '../../layers/browser-states/browser-states.js';
import { browserStateRoutes } from './routes.js';
import './decorators.js';
import '../headful/decorators.js';

export type { BrowserStates } from './decorators.js';

const PREFIX = '/api/browser-states';

/**
 * Wrapped with fastify-plugin so `app.browserStates` reaches the runs plugin (a run starts from a state, or saves
 * one); the routes stay encapsulated under their prefix. A storage without the store (contract 2.8) gets the routes,
 * answering 503 with why, and no decorator: runs naming a state then fail, saying so.
 */
async function browserStateEndpoints(app: FastifyInstance, options: { prefix?: string }): Promise<void> {
  const { services } = app;
  const store = services.storage.browserStates;
  const states = store ? createBrowserStates(store, services.sharedKey(BROWSER_STATE_KEY_PURPOSE)) : undefined;
  if (states) app.decorate('browserStates', states);
  const refuse = async () => {
    throw Errors.STORAGE_UNAVAILABLE({ reason: `the ${services.storage.kind} storage keeps no browser states (storage contract 2.8)` });
  };
  const unavailable = { list: refuse, get: refuse, open: refuse, save: refuse, delete: refuse };
  await app.register(browserStateRoutes, { prefix: options.prefix || PREFIX, states: states ?? unavailable, sessions: app.browserSessions });
}

/** Named browser states under `/api/browser-states`, and `app.browserStates` (README "Browser states"). */
export const browserStatesPlugin = definePlugin({
  name: 'browser-states',
  prefix: PREFIX,
  decorates: ['browserStates'],
  plugin: fp(browserStateEndpoints, {
    name: 'taskloom-browser-states',
    fastify: '5.x',
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler'],
    decorators: { fastify: ['services', 'browserSessions'] },
  }),
});
