import { Type } from 'typebox';
import { CAPTCHA_CONTRACT_VERSION } from '../../../kernel/contracts/captcha.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { createTaskApiSolver, TASK_API_ID } from './solver.js';

export { createTaskApiSolver, TASK_API_ID } from './solver.js';

/**
 * Captcha provider `task-api` (CAPTCHA_SOLVER=task-api): a solving service's createTask / getTaskResult JSON API,
 * at CAPTCHA_BASE_URL with the account key CAPTCHA_API_KEY. Tested against a local stand-in of that API.
 */
export const taskApiCaptcha = defineProvider({
  capability: 'captcha',
  id: TASK_API_ID,
  contractVersion: CAPTCHA_CONTRACT_VERSION,
  configSchema: Type.Object({
    CAPTCHA_API_KEY: Type.String({ minLength: 1, description: "the solving service's account key" }),
    CAPTCHA_BASE_URL: Type.String({ minLength: 1, default: 'https://api.2captcha.com', description: 'an http(s) URL, checked against the outbound rule' }),
  }),
  async create(context) {
    const { CAPTCHA_API_KEY: apiKey, CAPTCHA_BASE_URL: baseUrl } = context.config;
    await context.outbound.guard.check(`${baseUrl.replace(/\/+$/, '')}/createTask`);
    return createTaskApiSolver(context.outbound, { apiKey, baseUrl });
  },
});
