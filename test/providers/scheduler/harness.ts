// Shared by the schedules plugin tests (test/plugins/schedules*.test.ts): a real in-test task runner and a
// service built from the built-in modules with that runner in place of the runs plugin (which needs a browser).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import fp from 'fastify-plugin';
import type { TaskRunOutcome, TaskRuns } from '../../../plugins/runs/decorators.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { loadConfig } from '../../../kernel/config.js';
import { Errors } from '../../../kernel/errors.js';
import { definePlugin, Registry } from '../../../kernel/registry.js';
import { createService } from '../../../kernel/server.js';
import { plugins, providers } from '../../../app/built-ins.js';
import { makeTempDir, request, type RequestOptions, type TestService } from '../../support/service.js';

export interface RecordingRuns extends TaskRuns {
  /** Every run asked for, in order. */
  calls: Array<{ taskId: string; trigger: string }>;
  /** Runs started from now on wait until `release()` is called. */
  hold(): void;
  release(): void;
}

/**
 * Runs nothing in a browser: records an execution (with the trigger) through storage, as the runs plugin does,
 * and answers like it. `storage` is handed over when the service creates it.
 */
export function createRecordingRuns(getStorage: () => StorageProvider): RecordingRuns {
  const running = new Map<string, number>();
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const calls: RecordingRuns['calls'] = [];
  return {
    calls,
    hold() { gate = new Promise((resolve) => { open = resolve; }); },
    release() { open(); gate = null; },
    isRunning: (taskId) => (running.get(taskId) ?? 0) > 0,
    async run(taskId, options): Promise<TaskRunOutcome> {
      const storage = getStorage();
      const task = await storage.tasks.get(taskId);
      if (!task) throw Errors.TASK_NOT_FOUND({ id: taskId });
      calls.push({ taskId, trigger: options.trigger });
      running.set(taskId, (running.get(taskId) ?? 0) + 1);
      const started = Date.now();
      try {
        if (gate) await gate;
        const executionId = randomUUID();
        const durationMs = Date.now() - started;
        await storage.executions.insert({
          executionId, taskId, taskName: task.name, status: 'success', trigger: options.trigger,
          startedAt: new Date(started).toISOString(), finishedAt: new Date().toISOString(), durationMs, result: {}, logs: [],
        });
        return { executionId, status: 'success', durationMs };
      } finally {
        running.set(taskId, running.get(taskId)! - 1);
      }
    },
  };
}

export interface SchedulesService extends TestService {
  runs: RecordingRuns;
}

/**
 * The real service (built-in providers, the plugins the schedules need) on a free port, with `app.taskRuns`
 * from a recorder. Authentication is off unless `env` says otherwise.
 */
export async function startSchedulesService(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<SchedulesService> {
  const dir = options.dataDir ?? (await makeTempDir('taskloom-schedules-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', AUTH_DISABLED: 'true', ...options.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' });
  let storage: StorageProvider | undefined;
  const runs = createRecordingRuns(() => storage!);
  const recorder = definePlugin({
    name: 'test-task-runs',
    decorates: ['taskRuns'],
    plugin: fp(async (app) => {
      storage = app.services.storage;
      app.decorate('taskRuns', runs);
    }, { name: 'test-task-runs' }),
  });
  // Not the runs plugin (it needs a browser) nor the AI plugin; every plugin the schedules rely on.
  const wanted = ['health', 'auth', 'tasks', 'settings', 'data', 'executions', 'instances'];
  const registry = new Registry();
  registry.addModule({
    providers,
    plugins: [
      ...(plugins ?? []).filter((p) => wanted.includes(p.name)),
      recorder,
      ...(plugins ?? []).filter((p) => p.name === 'schedules'),
    ],
  });
  const service = await createService(config, { registry });
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  return {
    baseUrl, dataDir: dir, service, runs,
    request: (method: string, url: string, opts?: RequestOptions) => request(baseUrl, method, url, opts),
    async close() {
      await service.close();
      if (!options.dataDir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A minimal valid task body for `POST /api/tasks`. */
export const taskBody = (name = 'Scrape prices') => ({ name, url: 'https://example.com/', mode: 'scrape', actions: [] });
