// A local stand-in of a CAPTCHA solving service's JSON task API (anti-captcha's createTask / getTaskResult, which
// 2captcha and others answer too): tasks of the three proxyless widget types, answered `processing` for the first
// `processingPolls` polls and then `ready` with `token` (what the test sets: a right or a wrong one). A wrong
// clientKey answers errorId 1 ERROR_KEY_DOES_NOT_EXIST; an unknown taskId ERROR_NO_SUCH_CAPCHA_ID.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CaptchaTaskSeen {
  type: string;
  websiteURL: string;
  websiteKey: string;
}

export interface CaptchaTaskApiStandIn {
  url: string;
  key: string;
  /** The token every task is solved with. */
  token: string;
  /** Polls answered `processing` before `ready`. */
  processingPolls: number;
  tasks: CaptchaTaskSeen[];
  /** Every request's path and body, in order. */
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const TYPES = new Set(['RecaptchaV2TaskProxyless', 'HCaptchaTaskProxyless', 'TurnstileTaskProxyless']);

export async function startCaptchaTaskApi(options: { key?: string; token?: string; processingPolls?: number } = {}): Promise<CaptchaTaskApiStandIn> {
  const polls = new Map<number, number>();
  const state: Omit<CaptchaTaskApiStandIn, 'url' | 'close'> = {
    key: options.key ?? 'stand-in-key-PLANTED', token: options.token ?? 'solved-token-1', processingPolls: options.processingPolls ?? 1, tasks: [], requests: [],
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => { raw += chunk.toString(); });
    req.on('end', () => {
      const reply = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return reply({ errorId: 1, errorCode: 'ERROR_BAD_REQUEST', errorDescription: 'not JSON' });
      }
      state.requests.push({ path: req.url ?? '', body });
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (body.clientKey !== state.key) return reply({ errorId: 1, errorCode: 'ERROR_KEY_DOES_NOT_EXIST', errorDescription: 'Account authorization key not found in the system' });
      if (req.url === '/createTask') {
        const task = body.task as Partial<CaptchaTaskSeen> | undefined;
        if (!task || !TYPES.has(String(task.type)) || !task.websiteURL || !task.websiteKey) {
          return reply({ errorId: 1, errorCode: 'ERROR_TASK_NOT_SUPPORTED', errorDescription: 'Task type is not supported or the task is incomplete' });
        }
        state.tasks.push({ type: task.type!, websiteURL: task.websiteURL, websiteKey: task.websiteKey });
        const taskId = 1000 + state.tasks.length;
        polls.set(taskId, 0);
        return reply({ errorId: 0, taskId });
      }
      if (req.url === '/getTaskResult') {
        const taskId = Number(body.taskId);
        const seen = polls.get(taskId);
        if (seen === undefined) return reply({ errorId: 1, errorCode: 'ERROR_NO_SUCH_CAPCHA_ID', errorDescription: 'Task with this ID does not exist' });
        polls.set(taskId, seen + 1);
        if (seen < state.processingPolls) return reply({ errorId: 0, status: 'processing' });
        return reply({ errorId: 0, status: 'ready', solution: { gRecaptchaResponse: state.token, token: state.token }, cost: '0.00299' });
      }
      res.writeHead(404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const standIn = state as CaptchaTaskApiStandIn;
  standIn.url = `http://127.0.0.1:${port}`;
  standIn.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return standIn;
}
