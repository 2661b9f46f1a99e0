import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import { DEFAULT_TASK_FILES_MAX, DEFAULT_TASK_FILE_MAX_BYTES } from '../../layers/task-files/index.js';
import { taskRoutes } from './routes.js';

const settings = Type.Object({
  /** The most bytes one task file may hold (README "Task files"). */
  TASK_FILE_MAX_BYTES: Type.Integer({ minimum: 1, maximum: 1024 ** 3, default: DEFAULT_TASK_FILE_MAX_BYTES }),
  /** The most files one task may keep. */
  TASK_FILES_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: DEFAULT_TASK_FILES_MAX }),
});

async function tasks(app: FastifyInstance, options: { config: Static<typeof settings> }): Promise<void> {
  await taskRoutes(app, { limits: { maxBytes: options.config.TASK_FILE_MAX_BYTES, maxFiles: options.config.TASK_FILES_MAX } });
}

/** Task CRUD, touch, version history and task files under `/api/tasks`. */
export const tasksPlugin = definePlugin({ name: 'tasks', prefix: '/api', configSchema: settings, plugin: tasks });
