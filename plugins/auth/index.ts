import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';
import { MAX_INVITATION_HOURS } from './account-schemas.js';
import { invitationRoutes } from './invitation-routes.js';
import { authRoutes } from './routes.js';
import { userRoutes } from './users-routes.js';

const settings = Type.Object({
  /** How long an invitation link stays valid unless the admin asks otherwise (README "Team access"). */
  INVITATION_TTL_HOURS: Type.Integer({ minimum: 1, maximum: MAX_INVITATION_HOURS, default: 7 * 24 }),
});

async function auth(app: FastifyInstance, options: { config: Static<typeof settings> }): Promise<void> {
  await authRoutes(app);
  // A provider whose users live elsewhere (an SSO proxy's) keeps no accounts here: there is nothing to manage.
  const { accounts } = app.services.auth;
  if (!accounts) return;
  await userRoutes(app, { accounts });
  await invitationRoutes(app, { accounts, ttlHours: options.config.INVITATION_TTL_HOURS });
}

/** Setup, login, logout, me, the system API key, and the team's users and invitations. */
export const authPlugin = definePlugin({ name: 'auth', prefix: '/api', configSchema: settings, plugin: auth });
