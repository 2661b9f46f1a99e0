import type { PageCapture, TaskRuns } from './offered.js';
import type { RunService } from './run-service.js';
import type { RunHealing } from './healing/run-healing.js';

export type { RepairAdvisor, RepairEvent, RunHealing } from './healing/run-healing.js';
export type { CaptureTask, CapturedPage, PageCapture, RunTrigger, TaskRunOptions, TaskRunOutcome, TaskRuns } from './offered.js';

// The decorators the runs plugin adds for every scope (fastify-plugin, name 'taskloom-runs'), typed here: a
// plugin that needs one declares it (fastify-plugin `decorators`) and imports this file's types.
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs tasks: `start(task, options)` stores a `queued` execution and resolves to `{ executionId, finished }`;
     * `execute` resolves to the answer once the run ended; `cancel(executionId)`.
     */
    runs: RunService;
    /** Runs a task by id through the same queue (the scheduler's way in). */
    taskRuns: TaskRuns;
    /**
     * The live page a task reaches before one of its actions (generate-selector, the inspector). Optional: a
     * composition without the runs plugin has none, and its users say so.
     */
    pageCapture?: PageCapture;
    /**
     * Healing (README "Healing"): `events` tells each repair a run proposed or applied ('repair'); the AI plugin sets
     * the ladder's AI step with `setAdvisor`.
     */
    runHealing?: RunHealing;
  }
}
