import type { RunService } from './run-service.js';

// The decorator the runs plugin adds for every scope (fastify-plugin, name 'taskloom-runs'), typed here.
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs tasks: `start(task, options)` stores a `queued` execution and resolves to `{ executionId, finished }`;
     * `execute` resolves to the answer once the run ended; `cancel(executionId)`. The scheduler uses
     * `execute(task, { trigger: 'schedule' })`.
     */
    runs: RunService;
  }
}

export {};
