import { Type, type Static } from 'typebox';

/**
 * The task option `antiBot`: how a run meets bot walls (anti-bot-rules.ts). Outside the kernel's Task record (a task
 * keeps unknown options as sent), so the tasks plugin adds it to the bodies it validates.
 */
export const AntiBotOption = Type.Object({
  detect: Type.Optional(Type.Boolean({ description: 'look for bot walls (outcome anti_bot); default true' })),
  waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, description: 'wait this long for a challenge page to clear by itself; default 5000' })),
  proxyRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 5, description: 'with rotateProxies: run again through another proxy after anti_bot; default 1' })),
  captcha: Type.Optional(Type.Enum(['off', 'solve'], { description: "'solve': a found reCAPTCHA, hCaptcha or Turnstile widget is solved by the configured CAPTCHA_SOLVER; default off" })),
  onWall: Type.Optional(Type.Enum(['end', 'pause'], { description: "'pause': a bot wall pauses the run for a person (outcome so far awaiting_human) instead of ending it anti_bot; default end" })),
  onSecondFactor: Type.Optional(Type.Enum(['continue', 'pause'], { description: "'pause': a page asking for a one-time code pauses the run for a person; default continue" })),
  pauseMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000, description: 'how long an automatic pause waits for a person before the run ends stopped; default 900000 (15 min)' })),
}, { additionalProperties: false, description: 'how a run meets bot walls and second-factor prompts (README: Outcomes and bot walls, A person in the loop)' });
export type AntiBotOption = Static<typeof AntiBotOption>;
