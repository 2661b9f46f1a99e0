// Named browser states end to end, on the real service in its own process (real HTTP, real Chromium): a person logs
// in in a live browser session (driven here through the session's relayed DevTools endpoint), the session's state is
// saved under a name, and later runs start logged in from it; a run saves a state of its own. The login's cookie and
// token never show in an answer or the log, and are stored sealed. Both engines; json and PostgreSQL storage.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import puppeteer from 'puppeteer';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startLoginSite, type LoginSite } from '../support/login-site.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie, type ApiResponse, type RequestOptions } from '../support/service.js';

const chromium = chromiumOrSkip();
const noPostgres = await postgresUnavailable();

const readStatus = 'return { status: document.querySelector("#status")?.textContent, token: document.querySelector("#token")?.textContent }';
const LOGGED_IN = { status: 'logged in as ada', token: 'token ok' };
const LOGGED_OUT = { status: 'logged out', token: 'no token' };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat();
}

const setups = [
  { engine: 'playwright', storage: 'json' },
  { engine: 'puppeteer', storage: 'json' },
  { engine: 'puppeteer', storage: 'postgres' },
] as const;

for (const setup of setups) {
  const skip = chromium.skip || (setup.storage === 'postgres' && noPostgres);
  describe(`browser states: ${setup.engine} engine, ${setup.storage} storage`, { skip }, () => {
    let site: LoginSite;
    let svc: ServiceProcess;
    let db: TestDatabase | undefined;
    let dataDir: string;
    let apiKey: string;
    /** Every answer's text, to look for the secrets in. */
    const answers: string[] = [];
    const api = async (method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> => {
      const res = await request(svc.baseUrl, method, url, { apiKey, ...options });
      answers.push(`${method} ${url} ${res.status} ${res.text}`);
      return res;
    };
    const createTask = async (fields: Record<string, unknown>) => {
      const res = await api('POST', '/api/tasks', { body: { name: 'account', url: `${site.origin}/account`, mode: 'agent', actions: [], extractionScript: readStatus, ...fields } });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const run = (taskId: string, body?: Record<string, unknown>) => api('POST', `/api/tasks/${taskId}/api`, body ? { body } : {});

    before(async () => {
      site = await startLoginSite();
      dataDir = await makeTempDir();
      db = setup.storage === 'postgres' ? await createTestDatabase() : undefined;
      svc = await spawnService({
        DATA_DIR: dataDir, LOG_LEVEL: 'debug', ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium.path!, BROWSER_ENGINE: setup.engine,
        ...(db ? { STORAGE: 'postgres', DATABASE_URL: db.url() } : {}),
      });
      const done = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
      const key = await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(done.headers) });
      apiKey = key.body.apiKey;
    });
    after(async () => {
      await svc?.stop();
      await db?.drop();
      await site?.close();
    });

    it('saves the live session\'s login under a name; a later run starts logged in from it', async () => {
      const opened = await api('POST', '/api/browser/open', { body: { headless: true } });
      assert.equal(opened.status, 200, opened.text);
      // The person: logs in by hand in the session's window.
      const person = await puppeteer.connect({ browserWSEndpoint: opened.body.wsEndpoint });
      const window = (await person.pages())[0] ?? await person.newPage();
      await window.goto(`${site.origin}/login`);
      await window.type('#user', 'ada');
      await window.type('#password', 'lovelace');
      await Promise.all([window.waitForFunction('location.pathname === "/account"', { timeout: 15_000 }), window.click('#submit')]);
      await window.waitForSelector('#token');
      assert.equal(await window.$eval('#status', (e) => e.textContent), 'logged in as ada');
      await person.disconnect();

      const saved = await api('POST', '/api/browser-states', { body: { name: 'site-login', fromSession: opened.body.sessionId } });
      assert.equal(saved.status, 201, saved.text);
      assert.deepEqual(Object.keys(saved.body).sort(), ['cookieCount', 'createdAt', 'name', 'origins', 'sizeBytes', 'source', 'updatedAt']);
      assert.equal(saved.body.name, 'site-login');
      assert.equal(saved.body.cookieCount, 1);
      assert.deepEqual(saved.body.origins, ['127.0.0.1', site.origin]);
      assert.equal(saved.body.source, `session:${opened.body.sessionId}`);
      assert.ok(saved.body.sizeBytes > site.secrets.cookie.length + site.secrets.token.length);

      const loggedOut = await run(await createTask({}));
      assert.deepEqual([loggedOut.body.status, loggedOut.body.result.data], ['success', LOGGED_OUT], 'without a state a run is logged out');
      const taskId = await createTask({ browserState: 'site-login' });
      const loggedIn = await run(taskId);
      assert.deepEqual([loggedIn.body.status, loggedIn.body.result.data], ['success', LOGGED_IN], loggedIn.text);
      const record = await api('GET', `/api/executions/${loggedIn.body.executionId}`);
      assert.ok(JSON.stringify(record.body).includes('starting from browser state site-login'), record.text.slice(0, 300));
    });

    it('a run saves its state under a name once it succeeded; another run chooses it in its request', async () => {
      const login = await createTask({
        url: `${site.origin}/login`, extractionScript: readStatus, saveBrowserState: 'from-run',
        actions: [
          { type: 'type', selector: '#user', value: 'ada' }, { type: 'type', selector: '#password', value: 'lovelace' },
          { type: 'click', selector: '#submit' }, { type: 'wait_selector', selector: '#token' },
        ],
      });
      const ran = await run(login, { statelessExecution: true });
      assert.deepEqual([ran.body.status, ran.body.result.data], ['success', LOGGED_IN], ran.text);
      const state = await api('GET', '/api/browser-states/from-run');
      assert.equal(state.status, 200);
      assert.equal(state.body.source, `run:${ran.body.executionId}`);
      assert.equal(state.body.cookieCount, 1);
      const plain = await createTask({});
      const reused = await run(plain, { browserState: 'from-run', statelessExecution: true });
      assert.deepEqual([reused.body.status, reused.body.result.data], ['success', LOGGED_IN], reused.text);
      // The per-run choice wins over the task's.
      const other = await createTask({ browserState: 'from-run' });
      assert.deepEqual((await run(other, { browserState: 'site-login' })).body.result.data, LOGGED_IN);
    });

    it('lists summaries, refuses unknown names with 404 BROWSER_STATE_NOT_FOUND, deletes', async () => {
      const list = await api('GET', '/api/browser-states');
      assert.deepEqual(list.body.states.map((s: { name: string }) => s.name), ['from-run', 'site-login']);
      const unknown = await api('GET', '/api/browser-states/nope');
      assert.deepEqual([unknown.status, unknown.body.error], [404, 'BROWSER_STATE_NOT_FOUND']);
      assert.match(unknown.body.details, /Browser state nope not found/);
      const plain = await createTask({});
      const runUnknown = await run(plain, { browserState: 'nope' });
      assert.deepEqual([runUnknown.status, runUnknown.body.error], [404, 'BROWSER_STATE_NOT_FOUND']);
      const taskUnknown = await run(await createTask({ browserState: 'nope' }));
      assert.deepEqual([taskUnknown.status, taskUnknown.body.error], [404, 'BROWSER_STATE_NOT_FOUND']);
      const badName = await api('POST', '/api/browser-states', { body: { name: '../x', fromSession: 'bs_x' } });
      assert.equal(badName.status, 400);
      const noSession = await api('POST', '/api/browser-states', { body: { name: 'x', fromSession: 'bs_closed' } });
      assert.deepEqual([noSession.status, noSession.body.error], [404, 'NOT_FOUND']);
      assert.equal((await request(svc.baseUrl, 'GET', '/api/browser-states')).status, 401, 'anonymous');

      assert.deepEqual((await api('DELETE', '/api/browser-states/from-run')).body, { success: true });
      assert.equal((await api('DELETE', '/api/browser-states/from-run')).status, 404);
      assert.deepEqual((await api('GET', '/api/browser-states')).body.states.map((s: { name: string }) => s.name), ['site-login']);
    });

    it('saves the state of a studio session\'s page', async () => {
      const opened = await api('POST', '/api/studio/sessions', { body: { url: `${site.origin}/auto-login` } });
      assert.equal(opened.status, 200, opened.text);
      const saved = await api('POST', `/api/studio/sessions/${opened.body.sessionId}/browser-state`, { body: { name: 'studio-login' } });
      assert.equal(saved.status, 201, saved.text);
      assert.deepEqual([saved.body.cookieCount, saved.body.source], [1, `studio:${opened.body.sessionId}`]);
      assert.equal((await api('POST', '/api/studio/sessions/studio_gone/browser-state', { body: { name: 'x' } })).status, 404);
      await api('DELETE', `/api/studio/sessions/${opened.body.sessionId}`);
      const reused = await run(await createTask({}), { browserState: 'studio-login' });
      assert.deepEqual([reused.body.status, reused.body.result.data], ['success', LOGGED_IN], reused.text);
    });

    it('never shows the login in an answer or the log, and stores it sealed', async () => {
      const secrets = [site.secrets.cookie, site.secrets.token];
      assert.ok(answers.length > 15);
      for (const answer of answers) for (const secret of secrets) assert.ok(!answer.includes(secret), `an answer holds a secret: ${answer.slice(0, 120)}`);
      const log = svc.output();
      assert.match(log, /browser state saved/, 'the log was captured');
      for (const secret of secrets) assert.ok(!log.includes(secret), 'the log holds a secret');
      let stored: string;
      if (db) {
        const client = new pg.Client({ connectionString: db.url() });
        await client.connect();
        try {
          stored = (await client.query('SELECT doc::text AS doc FROM browser_states')).rows.map((r) => r.doc as string).join('\n');
        } finally {
          await client.end();
        }
      } else {
        const files = (await filesUnder(dataDir)).filter((f) => f.endsWith('.jsonl') || f.endsWith('.json'));
        assert.ok(files.some((f) => f.endsWith('browser-states.jsonl')), files.join(', '));
        stored = (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n');
      }
      assert.match(stored, /site-login/);
      assert.match(stored, /"sealed":"enc:v1:/);
      for (const secret of secrets) assert.ok(!stored.includes(secret), 'a secret is stored in the clear');
    });
  });
}
