import { definePlugin } from '../../kernel/plugin.js';
import { authRoutes } from './routes.js';

/** Setup, login, logout, me, and the system API key. */
export const authPlugin = definePlugin({ name: 'auth', prefix: '/api', plugin: authRoutes });
