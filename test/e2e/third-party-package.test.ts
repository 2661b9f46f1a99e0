// taskloom as a third party gets it: the packed package and the two example providers (examples/) installed into
// a fresh project outside the repository. There the examples pass the exported contract suites and type-check
// against the packed .d.ts, and the installed service runs a task on the SQLite storage, then takes its users
// from an SSO proxy's header. Packing and installing (better-sqlite3 compiles) take two to four minutes.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { EXAMPLES, installPackedProject, packingSkip, type PackedProject } from '../support/packed-project.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, request, sessionCookie } from '../support/service.js';

const chromium = chromiumOrSkip();
const TSC = path.resolve('node_modules/typescript/bin/tsc');
const BIN = ['node_modules/taskloom/bin/taskloom.js'];

/** The closing counts of a `node --test` run. */
function counts(output: string): Record<'pass' | 'fail' | 'skipped', number> {
  const count = (name: string) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? Number.NaN);
  return { pass: count('pass'), fail: count('fail'), skipped: count('skipped') };
}

/** GET `url` from the local address `localAddress` (another peer than 127.0.0.1, as the service sees it). */
function getFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject).end();
  });
}

describe('taskloom installed from its tarball, with third-party providers', { skip: packingSkip() || chromium.skip, timeout: 15 * 60_000 }, () => {
  let project: PackedProject;
  let pages: PagesServer;
  before(async () => {
    pages = await startPagesServer();
    project = await installPackedProject();
  }, { timeout: 12 * 60_000 });
  after(async () => {
    await pages?.close();
    await project?.remove();
  });

  for (const [name, pkg, skipped] of [['sqlite storage', EXAMPLES.sqlite, 0], ['proxy-header auth', EXAMPLES.proxyHeader, 9]] as const) {
    it(`the ${name} example passes the exported contract suite where it is installed`, () => {
      const result = project.node(['--test', '--test-reporter=spec', `node_modules/${pkg}/test/contract.test.js`]);
      assert.equal(result.status, 0, `${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);
      const { pass, fail, skipped: skips } = counts(result.stdout);
      assert.equal(fail, 0);
      assert.ok(pass >= (pkg === EXAMPLES.sqlite ? 90 : 10), `only ${pass} tests passed`);
      // sqlite offers every optional member; proxy-header keeps no accounts of its own (4 cases), offers no accounts
      // administration (3) and keeps no named API keys (2): each skipped case says so.
      assert.equal(skips, skipped, result.stdout.split('\n').filter((line) => line.includes('# ')).join('\n'));
    });

    it(`the ${name} example type-checks against the packed .d.ts`, () => {
      const result = project.node([TSC, '-p', `node_modules/${pkg}/tsconfig.json`]);
      assert.equal(result.status, 0, result.stdout + result.stderr);
    });
  }

  it('the packed declarations are real types: a wrong provider, plugin route or error use fails to compile', async () => {
    await fs.writeFile(path.join(project.dir, 'uses.ts'), `
import { defineProvider, STORAGE_CONTRACT_VERSION, type StorageProvider } from 'taskloom/contracts';
import { Errors } from 'taskloom/errors';
import { definePlugin } from 'taskloom/plugin';
import { storageContract } from 'taskloom/testing';
// @ts-expect-error a storage must have its stores
export const incomplete: StorageProvider = { kind: 'nothing' };
export const plugin = definePlugin({ name: 'hello', async plugin(app) {
  app.get('/hello', { config: { auth: 'public' } }, async (req) => ({ who: req.principal.kind, storage: app.services.storage.kind }));
  // @ts-expect-error not an auth policy
  app.get('/nope', { config: { auth: 'everyone' } }, async () => ({}));
} });
export const provider = defineProvider({ capability: 'storage', id: 'x', contractVersion: STORAGE_CONTRACT_VERSION, create: async () => incomplete });
// @ts-expect-error no such error in the catalogue
Errors.NO_SUCH_ERROR();
storageContract('x', async () => ({ storage: incomplete, reopen: async () => incomplete, cleanup: async () => {} }));
`);
    await fs.writeFile(path.join(project.dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] },
      files: ['uses.ts'],
    }));
    const result = project.node([TSC, '-p', 'tsconfig.json']);
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  it('the installed service runs a task on the SQLite storage (TASKLOOM_MODULES, STORAGE=sqlite), and has it after a restart', async () => {
    const dataDir = path.join(project.dir, 'data-sqlite');
    const start = () => spawnService({
      DATA_DIR: dataDir, TASKLOOM_MODULES: EXAMPLES.sqlite, STORAGE: 'sqlite', ALLOW_PRIVATE_NETWORKS: 'true',
    }, { args: BIN, cwd: project.dir });
    let svc = await start();
    let apiKey: string;
    let taskId: string;
    let executionId: string;
    try {
      const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
      assert.equal(setup.status, 200, setup.text);
      apiKey = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey as string;
      const created = await request(svc.baseUrl, 'POST', '/api/tasks', {
        apiKey,
        body: {
          name: 'third-party storage', url: `${pages.origin}/index.html`, mode: 'agent',
          actions: [{ type: 'click', selector: '#increment' }, { type: 'click', selector: '#increment' }],
          extractionScript: 'return { count: document.querySelector("#count").textContent, title: document.title }',
        },
      });
      assert.equal(created.status, 200, created.text);
      taskId = created.body.id;
      const run = await request(svc.baseUrl, 'POST', `/api/tasks/${taskId}/api`, { apiKey });
      assert.equal(run.status, 200, run.text);
      assert.equal(run.body.status, 'success', run.text);
      assert.deepEqual(run.body.result.data, { count: '2', title: 'Fixture home' });
      executionId = run.body.executionId;
      assert.match(svc.output(), /sqlite storage opened/);
    } finally {
      assert.equal(await svc.stop(), 0);
    }
    const files = await fs.readdir(dataDir);
    assert.ok(files.includes('taskloom.sqlite'), `DATA_DIR holds ${files.join(', ')}`);
    assert.deepEqual(files.filter((name) => name.endsWith('.jsonl')), [], 'the json storage wrote files');

    svc = await start();
    try {
      const task = await request(svc.baseUrl, 'GET', `/api/tasks/${taskId}`, { apiKey });
      assert.deepEqual([task.status, task.body.name], [200, 'third-party storage'], task.text);
      const history = await request(svc.baseUrl, 'GET', '/api/executions/list', { apiKey });
      assert.deepEqual(history.body.executions.map((e: { executionId: string; status: string }) => [e.executionId, e.status]), [[executionId, 'success']]);
    } finally {
      assert.equal(await svc.stop(), 0);
    }
  });

  it('the installed service takes users from a trusted proxy\'s header (AUTH_PROVIDER=proxy-header) and refuses anyone else', async () => {
    let svc: ServiceProcess | undefined;
    try {
      svc = await spawnService({
        DATA_DIR: path.join(project.dir, 'data-proxy'), TASKLOOM_MODULES: `${EXAMPLES.sqlite},${EXAMPLES.proxyHeader}`,
        STORAGE: 'sqlite', AUTH_PROVIDER: 'proxy-header', PROXY_HEADER_TRUSTED: '127.0.0.1', ALLOW_PRIVATE_NETWORKS: 'true',
      }, { args: BIN, cwd: project.dir });
      const base = svc.baseUrl;
      const asAda = { 'x-forwarded-email': 'ada@example.com', 'x-forwarded-user': 'Ada' };

      assert.equal((await request(base, 'GET', '/api/auth/check-setup')).body.setupRequired, false, 'no first admin to create');
      const me = await request(base, 'GET', '/api/auth/me', { headers: asAda });
      assert.equal(me.status, 200, me.text);
      assert.deepEqual([me.body.user.email, me.body.user.name], ['ada@example.com', 'Ada']);

      const anonymous = await request(base, 'GET', '/api/tasks');
      assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'UNAUTHORIZED']);
      const forged = await getFrom('127.0.0.2', `${base}/api/tasks`, asAda);
      assert.deepEqual([forged.status, forged.body.error], [401, 'UNAUTHORIZED']);
      assert.match(forged.body.details, /PROXY_HEADER_TRUSTED/);

      const created = await request(base, 'POST', '/api/tasks', {
        headers: asAda, body: { name: 'behind the proxy', url: `${pages.origin}/second.html`, mode: 'scrape', actions: [] },
      });
      assert.equal(created.status, 200, created.text);
      const run = await request(base, 'POST', `/api/tasks/${created.body.id}/api`, { headers: asAda });
      assert.deepEqual([run.status, run.body.status, run.body.result.title], [200, 'success', 'Second page'], run.text);
    } finally {
      if (svc) assert.equal(await svc.stop(), 0);
    }
  });
});
