import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, beforeEach, describe, it, type TestContext } from 'node:test';
import { Errors } from '../../kernel/errors.js';
import {
  ADMIN, makeTempDir, request, sessionCookie, setupAdmin, startService, type RequestOptions, type TestService,
} from '../support/service.js';
import { spawnService } from '../support/process.js';
import { startBaserowStandIn, type BaserowStandIn } from '../stand-ins/baserow.js';

const MASK = '********';
const PUBLIC_IP_URL = 'https://93.184.215.14'; // public, and needs no DNS

let standIn: BaserowStandIn;
// svc: ALLOW_PRIVATE_NETWORKS=true, so it reaches the stand-in on 127.0.0.1; strict: false.
let svc: TestService, strict: TestService, apiKey: string, strictKey: string;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const strictApi = (method: string, url: string, options: RequestOptions = {}) => strict.request(method, url, { apiKey: strictKey, ...options });
const good = () => ({ provider: 'tablestore', name: 'Baserow', config: { baseUrl: `${standIn.url}/`, token: standIn.token } });
const create = async () => {
  const res = await api('POST', '/api/credentials', { body: good() });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
/** A fresh DATA_DIR, removed when the test ends. */
const tempDir = async (t: TestContext) => {
  const dir = await makeTempDir();
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
};
const noToken = (text: string) => assert.ok(!text.includes(standIn.token), `the token leaked: ${text}`);
const proxy = (id: string, rest = '') => `/api/credentials/${id}/proxy/tablestore/databases${rest}`;

before(async () => {
  [standIn, svc, strict] = await Promise.all([
    startBaserowStandIn(), startService({ ALLOW_PRIVATE_NETWORKS: 'true' }), startService({ ALLOW_PRIVATE_NETWORKS: 'false' }),
  ]);
  [{ apiKey }, { apiKey: strictKey }] = await Promise.all([setupAdmin(svc), setupAdmin(strict)]);
});
after(() => Promise.all([svc.close(), strict.close(), standIn.close()]));
beforeEach(() => standIn.reset());

describe('credentials: save, list, change, delete', () => {
  it('answers the saved credential (cred_ id, base URL without trailing slash, token masked) and lists it masked', async () => {
    const saved = await api('POST', '/api/credentials', { body: good() });
    assert.match(saved.body.id, /^cred_[A-Za-z0-9_-]{8,}$/);
    assert.deepEqual({ ...saved.body, id: 'x', createdAt: 'x', updatedAt: 'x' },
      { id: 'x', name: 'Baserow', provider: 'tablestore', config: { baseUrl: standIn.url, token: MASK }, createdAt: 'x', updatedAt: 'x' });
    const list = await api('GET', '/api/credentials');
    assert.deepEqual(list.body.find((c: { id: string }) => c.id === saved.body.id), saved.body);
    assert.ok(list.body.every((c: { config: { token: string } }) => c.config.token === MASK));
    noToken(saved.text + list.text);
  });

  it('keeps the stored token when PUT sends the mask back or leaves it out, replaces it when PUT sends one', async () => {
    const saved = await create();
    const put = await api('PUT', `/api/credentials/${saved.id}`, { body: { ...saved, name: 'Renamed' } });
    assert.deepEqual([put.body.name, put.body.config.token, put.body.createdAt], ['Renamed', MASK, saved.createdAt]);
    assert.equal((await api('PUT', `/api/credentials/${saved.id}`, { body: { name: 'Again' } })).status, 200);
    const list = await api('GET', '/api/credentials');
    assert.equal(list.body.find((c: { id: string }) => c.id === saved.id).config.token, MASK);
    noToken(list.text);
    assert.equal((await api('GET', proxy(saved.id))).status, 200, 'the kept token still opens the product');
    assert.equal((await api('PUT', `/api/credentials/${saved.id}`, { body: { config: { token: 'new-token' } } })).status, 200);
    await api('GET', proxy(saved.id));
    assert.deepEqual(standIn.requests.map((r) => r.authorization), [`Token ${standIn.token}`, 'Token new-token']);
  });

  it('asks for the token again when PUT moves the base URL to another origin', async () => {
    const saved = await create();
    const moved = await api('PUT', `/api/credentials/${saved.id}`, { body: { config: { baseUrl: PUBLIC_IP_URL, token: MASK } } });
    assert.deepEqual([moved.status, moved.body.error], [400, 'VALIDATION_ERROR']);
    assert.match(moved.body.details, /token must be sent again/);
    const withToken = await api('PUT', `/api/credentials/${saved.id}`, { body: { config: { baseUrl: PUBLIC_IP_URL, token: 'new' } } });
    assert.equal(withToken.body.config.baseUrl, PUBLIC_IP_URL);
  });

  it('deletes, then answers 404 CREDENTIAL_NOT_FOUND for that id everywhere', async () => {
    const saved = await create();
    const del = await api('DELETE', `/api/credentials/${saved.id}`);
    assert.deepEqual([del.status, del.body], [200, { success: true }]);
    for (const [method, url, body] of [
      ['DELETE', `/api/credentials/${saved.id}`], ['PUT', `/api/credentials/${saved.id}`, { name: 'x' }],
      ['GET', proxy(saved.id)], ['GET', proxy(saved.id, '/11/tables')],
    ] as const) {
      const res = await api(method, url, body ? { body } : {});
      assert.deepEqual([res.status, res.body.error], [404, 'CREDENTIAL_NOT_FOUND'], `${method} ${url}`);
    }
  });

  it('refuses an unknown provider, a missing or mistyped field and the mask as a new token', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...good(), provider: 'sheetsy' }, /body\.provider must be one of tablestore/],
      [{ ...good(), config: { baseUrl: standIn.url } }, /body\.config\.token is required/],
      [{ ...good(), config: { baseUrl: standIn.url, token: 42 } }, /body\.config\.token/],
      [{ ...good(), name: '  ' }, /body\.name/],
      [{ ...good(), config: { baseUrl: standIn.url, token: MASK } }, /mask/],
    ];
    for (const [body, details] of cases) {
      const res = await api('POST', '/api/credentials', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
      assert.match(res.body.details, details);
    }
  });
});

describe('credentials: tablestore proxy', () => {
  it('lists databases (database items only) and tables with the credential token, server-side', async () => {
    const { id } = await create();
    const dbs = await api('GET', proxy(id));
    assert.deepEqual([dbs.status, dbs.body], [200, [{ id: 11, name: 'Sales' }, { id: 12, name: 'Ops' }]]);
    const tables = await api('GET', proxy(id, '/11/tables'));
    assert.deepEqual([tables.status, tables.body], [200, [{ id: 101, name: 'Orders' }, { id: 102, name: 'Leads' }]]);
    assert.ok(standIn.requests.every((r) => r.authorization === `Token ${standIn.token}`));
  });

  it('answers 400 INVALID_DATABASE_ID for a databaseId that is not a number', async () => {
    const { id } = await create();
    for (const bad of ['abc', '1e3', '-1', '1.5', '12a', '9'.repeat(30)]) {
      const res = await api('GET', proxy(id, `/${bad}/tables`));
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_DATABASE_ID'], bad);
    }
    assert.equal(standIn.requests.length, 0);
  });

  for (const failure of ['401', '500', 'garbage'] as const) {
    it(`answers 502 UPSTREAM_ERROR without the token when the product answers ${failure}`, async () => {
      const { id } = await create();
      standIn.fail(failure);
      const res = await api('GET', proxy(id));
      assert.deepEqual([res.status, res.body.error], [502, 'UPSTREAM_ERROR']);
      if (failure !== 'garbage') assert.match(res.body.details, new RegExp(failure));
      noToken(res.text);
    });
  }
});

describe('credentials: outbound (SSRF) rule', () => {
  it('refuses private and local base URLs in a POST or PUT with INVALID_BASE_URL and the reason in details', async () => {
    const saved = (await strictApi('POST', '/api/credentials', { body: { ...good(), config: { baseUrl: PUBLIC_IP_URL, token: 't' } } })).body;
    const urls = ['http://127.0.0.1:8080', 'http://10.0.0.5', 'http://[::1]/', 'http://localhost:3000', 'http://0x7f.1', 'http://2130706433', 'http://169.254.169.254'];
    for (const baseUrl of urls) {
      const body = { ...good(), config: { baseUrl, token: 't' } };
      for (const res of [await strictApi('POST', '/api/credentials', { body }), await strictApi('PUT', `/api/credentials/${saved.id}`, { body })]) {
        assert.deepEqual([res.status, res.body.error], [400, 'INVALID_BASE_URL'], baseUrl);
        assert.match(res.body.details, /address; set ALLOW_PRIVATE_NETWORKS=true|local machine/, baseUrl);
      }
    }
  });

  it('refuses malformed base URLs with INVALID_BASE_URL on either setting', async () => {
    for (const [baseUrl, details] of [['not a url', /not valid/], ['ftp://93.184.215.14', /scheme ftp/], ['https://u:p@93.184.215.14', /user name or password/]] as const) {
      for (const call of [api, strictApi]) {
        const res = await call('POST', '/api/credentials', { body: { ...good(), config: { baseUrl, token: 't' } } });
        assert.deepEqual([res.status, res.body.error], [400, 'INVALID_BASE_URL'], baseUrl);
        assert.match(res.body.details, details);
      }
    }
  });

  it('checks the stored base URL again at use time', async (t) => {
    const dataDir = await tempDir(t);
    const open = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    const { apiKey: key } = await setupAdmin(open);
    const saved = (await open.request('POST', '/api/credentials', { apiKey: key, body: good() })).body;
    await open.close();
    const closed = await startService({ ALLOW_PRIVATE_NETWORKS: 'false' }, dataDir);
    t.after(() => closed.close());
    const res = await closed.request('GET', proxy(saved.id), { apiKey: key });
    assert.deepEqual([res.status, res.body.error, standIn.requests.length], [400, 'INVALID_BASE_URL', 0]);
  });
});

describe('credentials: access and secrecy', () => {
  it('answers 401 to an anonymous caller on every credentials route', async () => {
    const routes = svc.service.app.routeTable.filter((r) => r.url.startsWith('/api/credentials') && r.method !== 'HEAD');
    assert.equal(routes.length, 6);
    for (const route of routes) {
      const res = await svc.request(route.method, route.url.replace(/:\w+/g, '1'), route.method === 'POST' || route.method === 'PUT' ? { body: good() } : {});
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${route.method} ${route.url}`);
    }
  });

  it('app.outputs.push writes rows through a stored credential', async () => {
    const { id } = await create();
    const rows = Array.from({ length: 250 }, (_, i) => ({ Name: `r${i}` }));
    assert.equal(await svc.service.app.outputs.push(id, '101', rows), 250);
    assert.deepEqual([standIn.batches, standIn.rows.get(101)], [[200, 50], rows]);
    await assert.rejects(svc.service.app.outputs.push('cred_missing', 101, rows), (e) => Errors.CREDENTIAL_NOT_FOUND.is(e));
    await assert.rejects(svc.service.app.outputs.push(id, 'abc', rows), (e) => Errors.VALIDATION_ERROR.is(e));
  });

  it('never writes the token to the log, even at trace level and on upstream failures', async (t) => {
    const proc = await spawnService({ LOG_LEVEL: 'trace', ALLOW_PRIVATE_NETWORKS: 'true', DATA_DIR: await tempDir(t) });
    try {
      const cookie = sessionCookie((await request(proc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN })).headers);
      const saved = (await request(proc.baseUrl, 'POST', '/api/credentials', { cookie, body: good() })).body;
      await request(proc.baseUrl, 'GET', proxy(saved.id), { cookie });
      standIn.fail('garbage');
      assert.equal((await request(proc.baseUrl, 'GET', proxy(saved.id), { cookie })).status, 502);
    } finally {
      await proc.stop();
    }
    assert.match(proc.output(), /credential created[\s\S]*tablestore answered 200 with a body that is not JSON/);
    noToken(proc.output());
  });
});
