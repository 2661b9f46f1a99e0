// The task-api captcha provider, created as the kernel creates it, against the local stand-in of the solving
// service's JSON task API (test/stand-ins/captcha-task-api.ts): the contract suite, then what is its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../kernel/config.js';
import { createOutboundClient, createOutboundGuard } from '../../../kernel/outbound/index.js';
import { taskApiCaptcha } from '../../../providers/captcha/task-api/index.js';
import { captchaContract, solveOnce } from '../../../testing/captcha.contract.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { startCaptchaTaskApi } from '../../stand-ins/captcha-task-api.js';

async function solverFor(url: string, key: string, allowPrivateNetworks = true) {
  const guard = createOutboundGuard({ allowPrivateNetworks });
  const client = createOutboundClient(guard);
  const config = loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  const solver = await taskApiCaptcha.create({
    config: { CAPTCHA_API_KEY: key, CAPTCHA_BASE_URL: url }, logger: createRecordingLogger(), dataDir: config.dataDir,
    outbound: { guard, client }, signal: new AbortController().signal,
  });
  return { solver, client };
}

captchaContract('task-api', async () => {
  const standIn = await startCaptchaTaskApi({ processingPolls: 2 });
  const clients: Array<{ close(): Promise<void> }> = [];
  const open = async (key: string, allow = true) => {
    const { solver, client } = await solverFor(standIn.url, key, allow);
    clients.push(client);
    return solver;
  };
  return {
    solver: await open(standIn.key),
    key: standIn.key,
    wrongKey: () => open('wrong-key-PLANTED'),
    privateRefused: () => open(standIn.key, false),
    solveWith: (token) => { standIn.token = token; },
    tasks: () => standIn.tasks,
    async close() {
      for (const client of clients) await client.close();
      await standIn.close();
    },
  };
});

describe('task-api captcha provider', () => {
  it('speaks createTask / getTaskResult: the task type per widget, the clientKey in each body, a trailing slash ignored', async () => {
    const standIn = await startCaptchaTaskApi({ processingPolls: 0 });
    const { solver, client } = await solverFor(`${standIn.url}/`, standIn.key);
    try {
      assert.deepEqual(await solveOnce(solver, { kind: 'turnstile', siteKey: '1x00000000000000000000AA', pageUrl: 'https://shop.example/' }), { status: 'ready', token: standIn.token });
      assert.deepEqual(standIn.requests.map((r) => r.path), ['/createTask', '/getTaskResult']);
      assert.deepEqual(standIn.requests[0]!.body, {
        clientKey: standIn.key, task: { type: 'TurnstileTaskProxyless', websiteURL: 'https://shop.example/', websiteKey: '1x00000000000000000000AA' },
      });
      assert.deepEqual(standIn.requests[1]!.body, { clientKey: standIn.key, taskId: 1001 });
    } finally {
      await client.close();
      await standIn.close();
    }
  });

  it('is refused at creation when the base URL is a private address the outbound rule refuses', async () => {
    await assert.rejects(solverFor('http://10.0.0.7:8080', 'k', false), /10\.0\.0\.7|private/i);
  });
});
