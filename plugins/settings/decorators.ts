import type { ProxyRotation } from '../../kernel/contracts/settings.js';

// The decorators the settings plugin adds for every scope (fastify-plugin, name 'taskloom-settings').
declare module 'fastify' {
  interface FastifyInstance {
    /** Picks the proxy of a run; see kernel/contracts/settings.ts. */
    proxyRotation: ProxyRotation;
  }
}

export {};
