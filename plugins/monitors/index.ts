import { definePlugin } from '../../kernel/plugin.js';
import { monitorRoutes } from './routes.js';

/**
 * Monitors (`POST /api/monitors`): the shortest way to watch one value on a page. A template over the tasks and
 * webhooks endpoints, which it calls through the API (README "Run intelligence").
 */
export const monitorsPlugin = definePlugin({
  name: 'monitors',
  prefix: '/api/monitors',
  plugin: monitorRoutes,
});
