import { definePlugin } from '../../kernel/plugin.js';
import { taskRoutes } from './routes.js';

/** Task CRUD, touch and version history under `/api/tasks`. */
export const tasksPlugin = definePlugin({ name: 'tasks', prefix: '/api', plugin: taskRoutes });
