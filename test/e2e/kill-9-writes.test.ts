// Acknowledged writes survive kill -9 of the service, end to end: clients write through the HTTP API (tasks
// created and patched, a proxy list, a single-valued setting, runs whose execution records end), the process is
// SIGKILLed in the middle, again and again, and after each restart everything answered 200 is there.
// (test/providers/storage/json-crash.test.ts does the same on the JSON store alone, at a higher rate.)
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';

const KILLS = 3;
const chromium = chromiumOrSkip();

interface Acked {
  /** Task id -> the last description answered 200 (each task has one writer, so it is that or the next one). */
  tasks: Map<string, number>;
  proxies: Set<string>;
  /** The last ai-models value answered 200, and the one in flight when the process died. */
  model: { acked?: string; inFlight?: string };
  executions: Set<string>;
}

describe(`acknowledged writes across ${KILLS} kill -9s of the service`, () => {
  let pages: PagesServer;
  let dataDir: string;
  let svc: ServiceProcess | undefined;
  before(async () => {
    pages = await startPagesServer();
    dataDir = await makeTempDir('taskloom-kill9-');
  });
  after(async () => {
    await svc?.stop('SIGKILL');
    await pages?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every task, task update, proxy, setting and finished run that was answered 200', { timeout: 600_000 }, async (t) => {
    const env = { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' };
    svc = await spawnService(env);
    const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
    const apiKey = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey as string;
    const api = (method: string, url: string, body?: unknown) => request(svc!.baseUrl, method, url, { apiKey, body });
    const runTask = (await api('POST', '/api/tasks', { name: 'run', mode: 'scrape', url: `${pages.origin}/second.html`, actions: [], extractionScript: 'return document.title' })).body.id as string;
    const acked: Acked = { tasks: new Map(), proxies: new Set(), model: {}, executions: new Set() };
    let serial = 0;

    for (let round = 0; round < KILLS; round++) {
      let stop = false;
      let count = 0;
      const ack = () => { count++; };
      // Every writer stops at the first failed request: the process is gone.
      const loop = async (step: () => Promise<boolean>) => {
        while (!stop) if (!(await step().catch(() => false))) return;
      };
      const taskWriter = () => loop(async () => {
        const created = await api('POST', '/api/tasks', { name: `t${serial++}`, mode: 'agent', url: `${pages.origin}/`, actions: [], description: '0' });
        if (created.status !== 200) return false;
        acked.tasks.set(created.body.id, 0);
        ack();
        for (let v = 1; v <= 3; v++) {
          const patched = await api('PATCH', `/api/tasks/${created.body.id}`, { description: String(v) });
          if (patched.status !== 200) return false;
          acked.tasks.set(created.body.id, v);
          ack();
        }
        return true;
      });
      const proxyWriter = () => loop(async () => {
        const label = `p${serial++}`;
        const res = await api('POST', '/api/settings/proxies', { server: `http://127.0.0.1:${1024 + (serial % 60000)}`, label });
        if (res.status !== 200) return false;
        acked.proxies.add(label);
        ack();
        return true;
      });
      const settingWriter = () => loop(async () => {
        const model = `model-${serial++}`;
        acked.model.inFlight = model;
        const res = await api('POST', '/api/settings/ai-models', { providerA: model });
        if (res.status !== 200) return false;
        acked.model.acked = model;
        ack();
        return true;
      });
      const runner = () => loop(async () => {
        const res = await api('POST', `/api/tasks/${runTask}/api`);
        if (res.status !== 200 || res.body.status !== 'success') return false;
        acked.executions.add(res.body.executionId);
        ack();
        return true;
      });
      const writers = [taskWriter(), taskWriter(), taskWriter(), proxyWriter(), settingWriter(), ...(chromium.skip ? [] : [runner()])];
      const target = 120 + Math.floor(Math.random() * 120);
      while (count < target) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(await svc.stop('SIGKILL'), null, 'killed, not exited');
      stop = true;
      await Promise.all(writers);
      t.diagnostic(`round ${round}: killed after ${count} acknowledged writes`);

      svc = await spawnService(env);
      const tasks = new Map<string, string>(((await api('GET', '/api/tasks')).body as { id: string; description?: string }[]).map((task) => [task.id, task.description ?? '']));
      for (const [id, version] of acked.tasks) {
        assert.ok(tasks.has(id), `acknowledged task ${id} is missing after round ${round}`);
        const stored = Number(tasks.get(id));
        assert.ok(stored === version || stored === version + 1, `task ${id}: description ${stored}, but ${version} was acknowledged`);
      }
      const labels = new Set(((await api('GET', '/api/settings/proxies')).body.proxies as { label?: string }[]).map((p) => p.label));
      for (const label of acked.proxies) assert.ok(labels.has(label), `acknowledged proxy ${label} is missing after round ${round}`);
      const model = (await api('GET', '/api/settings/ai-models')).body.providerA;
      assert.ok(model === acked.model.acked || model === acked.model.inFlight, `ai-models: ${model}, acknowledged ${acked.model.acked}`);
      for (const id of acked.executions) {
        const record = await api('GET', `/api/executions/${id}`);
        assert.deepEqual([record.status, record.body.status], [200, 'success'], `acknowledged run ${id} after round ${round}: ${record.text}`);
      }
    }
    t.diagnostic(`kept: ${acked.tasks.size} tasks (${[...acked.tasks.values()].reduce((a, b) => a + b, 0)} updates), ${acked.proxies.size} proxies, ` +
      `${acked.executions.size} finished runs, the last ai-models value, the API key`);
    assert.equal((await api('GET', '/api/auth/me')).status, 403, 'the API key still authenticates (403: /me wants a session)');
  });
});
