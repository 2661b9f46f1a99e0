// Runs and the service's life: a graceful stop lets running runs finish for up to 10 s, then stops them
// (`interrupted`) and cancels queued ones; a killed service leaves `running` records that the next start marks
// `interrupted` (a real process, SIGKILL, restarted on the same DATA_DIR).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer } from '../support/pages-server.js';
import { spawnService } from '../support/process.js';
import { makeTempDir, request, setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

type Call = <T = any>(method: string, url: string, options?: { body?: unknown }) => Promise<{ status: number; body: T; text: string }>;

async function createTask(call: Call, url: string, waitMs: number): Promise<string> {
  const res = await call('POST', '/api/tasks', { body: { name: `wait ${waitMs}`, mode: 'agent', url, actions: [{ type: 'wait', value: String(waitMs) }] } });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

async function statusOf(call: Call, taskId: string, wanted: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = (await call('GET', `/api/executions?taskId=${taskId}`)).body as any[];
    if (list[0]?.status === wanted) return list[0];
    if (Date.now() > deadline) throw new Error(`execution of ${taskId} never became ${wanted} (${list[0]?.status})`);
    await sleep(50);
  }
}

describe('runs across a stop of the service', { skip: chromium.skip }, () => {
  it('on a graceful stop: a run that ends within 10 s succeeds, a longer one is interrupted, a queued one cancelled', async () => {
    const pages = await startPagesServer();
    const dataDir = await makeTempDir();
    let svc: TestService | undefined = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '2' }, dataDir);
    try {
      const { apiKey } = await setupAdmin(svc);
      const call: Call = (method, url, options) => svc!.request(method, url, { apiKey, ...options });
      const [short, long, waiting] = [
        await createTask(call, `${pages.origin}/`, 2000), await createTask(call, `${pages.origin}/`, 60_000), await createTask(call, `${pages.origin}/`, 0),
      ];
      const answers = [short, long].map((id) => call('POST', `/api/tasks/${id}/api`));
      await statusOf(call, short, 'running');
      await statusOf(call, long, 'running');
      const queuedAnswer = call('POST', `/api/tasks/${waiting}/api`);
      await statusOf(call, waiting, 'queued');

      const started = Date.now();
      const closing = svc.service.close();
      const [a, b, c] = await Promise.all([...answers, queuedAnswer]);
      await closing;
      const took = Date.now() - started;
      assert.deepEqual([a!.body.status, b!.body.status, c!.body.status], ['success', 'interrupted', 'cancelled']);
      assert.match(b!.body.result.error.message, /service stopped/);
      assert.ok(took >= 9500 && took < 25_000, `the long run had 10 s of grace (${took} ms)`);

      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
      const again: Call = (method, url, options) => svc!.request(method, url, { apiKey, ...options });
      for (const [answer, status] of [[a, 'success'], [b, 'interrupted'], [c, 'cancelled']] as const) {
        const record = (await again('GET', `/api/executions/${answer!.body.executionId}`)).body;
        assert.equal(record.status, status);
        assert.ok(record.finishedAt, 'every record is final');
      }
    } finally {
      await svc?.close();
      await pages.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('after SIGKILL during a run, the next start marks the run interrupted', async () => {
    const pages = await startPagesServer();
    const dataDir = await makeTempDir();
    const env = { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' };
    let proc = await spawnService(env);
    try {
      const setup = await setupAdmin({ request: (m: string, u: string, o?: object) => request(proc.baseUrl, m, u, o) } as TestService);
      let call: Call = (method, url, options) => request(proc.baseUrl, method, url, { apiKey: setup.apiKey, ...options });
      const taskId = await createTask(call, `${pages.origin}/`, 60_000);
      const pending = call('POST', `/api/tasks/${taskId}/api`).catch((error: unknown) => error);
      const running = await statusOf(call, taskId, 'running');
      assert.equal(await proc.stop('SIGKILL'), null);
      assert.ok((await pending) instanceof Error, 'the caller lost its connection');

      proc = await spawnService(env);
      call = (method, url, options) => request(proc.baseUrl, method, url, { apiKey: setup.apiKey, ...options });
      const record = (await call('GET', `/api/executions/${running.executionId}`)).body;
      assert.equal(record.status, 'interrupted');
      assert.ok(record.finishedAt);
      const cancel = await call('POST', `/api/executions/${running.executionId}/cancel`);
      assert.deepEqual([cancel.status, cancel.body.error], [409, 'EXECUTION_FINISHED']);
    } finally {
      await proc.stop('SIGTERM');
      await pages.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
