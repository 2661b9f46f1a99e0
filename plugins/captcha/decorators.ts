import type { CaptchaSolver } from '../../kernel/contracts/captcha.js';

// The decorator of the captcha plugin (fastify-plugin, name 'taskloom-captcha'), typed for the plugins that use it.
declare module 'fastify' {
  interface FastifyInstance {
    /** The CAPTCHA solver CAPTCHA_SOLVER names; null when none is configured (nothing is solved). */
    captchaSolver: CaptchaSolver | null;
  }
}
