import type { TaskRuns } from '../../kernel/contracts/runs.js';

// The decorators this plugin reads, typed by declaration merging.
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs tasks on demand; provided by the runs plugin (kernel/contracts/runs.ts). Optional: without it a
     * scheduled fire logs an error and records `lastRunStatus: 'error'` instead of running the task.
     */
    taskRuns?: TaskRuns;
  }
}

export {};
