import type { CaptchaResult, CaptchaSolver, CaptchaTask } from '../../../kernel/contracts/captcha.js';
import type { OutboundServices } from '../../../kernel/contracts/outbound.js';
import { Errors } from '../../../kernel/errors.js';

export const TASK_API_ID = 'task-api';

/** The task types of the createTask API for each widget (the proxyless ones: the service solves from its own address). */
const TASK_TYPES: Record<CaptchaTask['kind'], string> = {
  recaptcha: 'RecaptchaV2TaskProxyless',
  hcaptcha: 'HCaptchaTaskProxyless',
  turnstile: 'TurnstileTaskProxyless',
};

export interface TaskApiSettings {
  /** The service's account key (`clientKey`). Never logged nor part of a message. */
  apiKey: string;
  /** Where the service's API lives, e.g. `https://api.2captcha.com`; SSRF-checked before every call. */
  baseUrl: string;
  /** One request; default 30 s. */
  timeoutMs?: number;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid base URL';
  }
};

/**
 * A solver speaking the JSON task API the common solving services share (anti-captcha's createTask /
 * getTaskResult, which 2captcha, CapSolver and others answer too): `POST {base}/createTask` with `{ clientKey,
 * task }` answers `{ errorId: 0, taskId }`; `POST {base}/getTaskResult` with `{ clientKey, taskId }` answers
 * `{ errorId: 0, status: "processing" | "ready", solution }`, the token in `solution.gRecaptchaResponse` (or
 * `solution.token`). `errorId` > 0 carries `errorCode` and `errorDescription`.
 */
export function createTaskApiSolver(outbound: OutboundServices, settings: TaskApiSettings): CaptchaSolver {
  const base = settings.baseUrl.trim().replace(/\/+$/, '');
  const where = `the CAPTCHA service at ${hostOf(base)}`;
  const scrub = (text: string) => text.split(settings.apiKey).join('***');

  async function call(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const url = `${base}${path}`;
    let answer: unknown;
    try {
      await outbound.guard.check(url);
      const response = await outbound.client.request(url, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ clientKey: settings.apiKey, ...body }), timeoutMs: settings.timeoutMs ?? 30_000, signal,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = JSON.parse(text);
    } catch (error) {
      throw Errors.UPSTREAM_ERROR({ reason: scrub(`${where} failed: ${error instanceof Error ? error.message : String(error)}`) });
    }
    if (typeof answer !== 'object' || answer === null) throw Errors.UPSTREAM_ERROR({ reason: `${where} answered something other than a JSON object` });
    const reply = answer as Record<string, unknown>;
    if (typeof reply.errorId === 'number' && reply.errorId > 0) {
      throw Errors.UPSTREAM_ERROR({ reason: scrub(`${where} refused: ${String(reply.errorCode ?? 'error')} ${String(reply.errorDescription ?? '')}`.trim()) });
    }
    return reply;
  }

  return {
    id: TASK_API_ID,
    async createTask(task, signal) {
      const reply = await call('/createTask', { task: { type: TASK_TYPES[task.kind], websiteURL: task.pageUrl, websiteKey: task.siteKey } }, signal);
      if (typeof reply.taskId !== 'number' && typeof reply.taskId !== 'string') throw Errors.UPSTREAM_ERROR({ reason: `${where} answered no taskId` });
      return String(reply.taskId);
    },
    async getResult(taskId, signal): Promise<CaptchaResult> {
      const reply = await call('/getTaskResult', { taskId: /^\d+$/.test(taskId) ? Number(taskId) : taskId }, signal);
      if (reply.status === 'processing') return { status: 'processing' };
      const solution = (reply.solution ?? {}) as Record<string, unknown>;
      const token = solution.gRecaptchaResponse ?? solution.token;
      if (reply.status === 'ready' && typeof token === 'string' && token !== '') return { status: 'ready', token };
      return { status: 'failed', reason: `${where} answered status ${JSON.stringify(reply.status)} without a token` };
    },
  };
}
