// The decorator this plugin adds, typed for every plugin by declaration merging.
import type { BrowserStates } from '../../layers/browser-states/browser-states.js';

export type { BrowserStates } from '../../layers/browser-states/browser-states.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Named browser states (README "Browser states"); only there when the storage keeps them (contract 2.8). */
    browserStates: BrowserStates;
  }
}
