// The editor's "Use from code" panel in real Chromium: the curl, JavaScript and Python calls it shows (and copies)
// are run as they are, with only the API key in the environment, and each runs the task on the real service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const run = promisify(execFile);
const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard use from code: ${skip}`);

describe('dashboard: use from code', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let session: DashboardSession;
  let apiKey: string;
  let taskId: string;
  let dir: string;

  before(async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    pages = await startPagesServer();
    ({ apiKey } = await setupAdmin(svc));
    const created = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Echo query', url: `${pages.origin}/index.html`, mode: 'agent', variables: { query: "it's lamps", limit: 3, exact: true },
        actions: [{ type: 'wait_selector', selector: '#heading' }],
        extractionScript: 'return [{ heading: document.querySelector("#heading").textContent }]',
      },
    });
    taskId = created.body.id;
    dir = await mkdtemp(path.join(tmpdir(), 'taskloom-code-'));
    session = await openDashboard(svc.baseUrl, `/tasks/${taskId}`, 'Echo query');
    await session.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.baseUrl });
    await session.page.getByRole('tab', { name: 'Use from code' }).click();
  });
  after(async () => {
    await session?.browser.close();
    await pages?.close();
    await svc?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const env = () => ({ ...process.env, TASKLOOM_API_KEY: apiKey });
  /** The shown call, and checks Copy puts exactly that on the clipboard. */
  async function shown(label: string): Promise<string> {
    const { page } = session;
    const code = await page.getByLabel(`${label} call`, { exact: true }).textContent() ?? '';
    await page.getByRole('button', { name: `Copy the ${label} call` }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
    assert.ok(code.includes(`${svc.baseUrl}/api/tasks/${taskId}/api`), code);
    assert.ok(!code.includes(apiKey), 'the key itself is never shown');
    return code;
  }
  const succeeded = (stdout: string) => {
    const answer = JSON.parse(stdout);
    assert.equal(answer.status, 'success', stdout);
    assert.equal(answer.taskId, taskId);
  };

  it('the curl call runs the task, the variables quoted for the shell', async () => {
    const code = await shown('curl');
    assert.match(code, /"query":"it'\\''s lamps"/);
    const { stdout } = await run('sh', ['-c', code], { env: env(), timeout: 120_000 });
    succeeded(stdout);
  });

  it('the JavaScript call runs the task in Node', async () => {
    const code = await shown('JavaScript (fetch)');
    const file = path.join(dir, 'call.mjs');
    await writeFile(file, code.replace('console.log(run.status, run.result.data);', 'console.log(JSON.stringify(run));'));
    const { stdout } = await run(process.execPath, [file], { env: env(), timeout: 120_000 });
    succeeded(stdout);
  });

  it('the Python call runs the task with requests, True and not true', async (t) => {
    const probe = await run('python3', ['-c', 'import requests'], { timeout: 30_000 }).then(() => true, () => false);
    if (!probe) return t.skip('python3 with requests is not installed');
    const code = await shown('Python (requests)');
    assert.match(code, /"exact": True/);
    const file = path.join(dir, 'call.py');
    await writeFile(file, code.replace('print(run["status"], run["result"]["data"])', 'import json; print(json.dumps(run))'));
    const { stdout } = await run('python3', [file], { env: env(), timeout: 120_000 });
    succeeded(stdout);
  });

  it('links to the API docs and to the API key settings; no page errors', async () => {
    const { page } = session;
    assert.equal(await page.getByRole('link', { name: 'API docs' }).getAttribute('href'), '/api/docs/#/runs/runTask');
    const docs = await svc.request('GET', '/api/docs/', { apiKey });
    assert.equal(docs.status, 200);
    await page.getByRole('link', { name: 'Settings' }).last().click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    assert.deepEqual(session.problems, []);
  });
});
