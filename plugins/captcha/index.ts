import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';
import { definePlugin } from '../../kernel/plugin.js';
import './decorators.js';

const settings = Type.Object({
  /** The captcha provider that solves widgets for tasks asking it (`antiBot.captcha: "solve"`); unset: none. */
  CAPTCHA_SOLVER: Type.Optional(Type.String({ minLength: 1, description: 'a captcha provider id, e.g. task-api' })),
});

/**
 * Creates the CAPTCHA solver CAPTCHA_SOLVER names, at start (its variables are checked then, and its service
 * address against the outbound rule), and offers it as `app.captchaSolver` (null when unset).
 */
async function captcha(app: FastifyInstance, options: { config: Static<typeof settings> }): Promise<void> {
  const id = options.config.CAPTCHA_SOLVER;
  let solver: CaptchaSolver | null = null;
  if (id !== undefined) {
    solver = await app.services.registry.service('captcha', id);
    app.services.logger.info({ solver: id }, 'CAPTCHA solver ready: tasks with antiBot.captcha "solve" use it');
  }
  app.decorate('captchaSolver', solver);
}

/** The optional CAPTCHA solver (`app.captchaSolver`). */
export const captchaPlugin = definePlugin({
  name: 'captcha',
  decorates: ['captchaSolver'],
  configSchema: settings,
  plugin: fp(captcha, { name: 'taskloom-captcha', fastify: '5.x', decorators: { fastify: ['services'] } }),
});
