import type { Instance } from './instance.js';

export type { DeadInstance, Instance } from './instance.js';

// The decorator of the instances plugin (fastify-plugin, name 'taskloom-instances'), typed for every plugin.
declare module 'fastify' {
  interface FastifyInstance {
    /** This instance among those sharing the storage: its id (recorded on its executions) and the instance leases. */
    instance: Instance;
  }
}
