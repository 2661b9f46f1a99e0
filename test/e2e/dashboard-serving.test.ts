// How the service serves the dashboard (plugins/web): caching, CSP, the SPA fallback, unknown API paths,
// and a clear page instead of a failed start when web/dist is missing.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../kernel/config.js';
import { Registry } from '../../kernel/registry.js';
import { createService, type Service } from '../../kernel/server.js';
import { plugins, providers } from '../../app/built-ins.js';
import { createWebPlugin } from '../../plugins/web/index.js';
import { dashboardSkipReason } from '../support/dashboard.js';
import { makeTempDir, request, setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason({ needsBrowser: false });
if (skip) console.log(`# skipped dashboard serving: ${skip}`);

describe('serving the built dashboard', { skip }, () => {
  let svc: TestService;
  let cookie: string;
  before(async () => {
    svc = await startService();
    ({ cookie } = await setupAdmin(svc));
  });
  after(async () => { await svc?.close(); });

  it('answers index.html at / with no-cache and a strict Content-Security-Policy', async () => {
    const res = await svc.request('GET', '/');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.text, /<div id="app">/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", 'frame-src http://127.0.0.1:*']) {
      assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
    }
    assert.equal(csp.includes('unsafe-inline'), false);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('serves hashed assets as immutable', async () => {
    const scripts = readdirSync('web/dist/assets').filter((f) => f.endsWith('.js'));
    assert.ok(scripts.length > 0);
    const res = await svc.request('GET', `/assets/${scripts[0]}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  it('falls back to index.html for app paths, but not for missing assets or outside files', async () => {
    for (const path of ['/tasks', '/tasks/task_abc', '/settings?x=1', '/executions/exec_1']) {
      const res = await svc.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.match(res.text, /<div id="app">/, path);
    }
    const missing = await svc.request('GET', '/assets/missing-123.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'NOT_FOUND');
    for (const path of ['/../package.json', '/assets/../../package.json', '/%2e%2e/%2e%2e/package.json', '/.gitignore']) {
      const res = await fetch(svc.baseUrl + path);
      const text = await res.text();
      assert.equal(text.includes('"dependencies"'), false, path);
    }
  });

  it('keeps the JSON 404 for unknown API paths', async () => {
    const known = await svc.request('GET', '/api/nope/nothing', { cookie });
    assert.equal(known.status, 404);
    assert.deepEqual(known.body, { error: 'NOT_FOUND', details: 'Route GET /api/nope/nothing not found', requestId: known.headers.get('x-request-id') });
    assert.equal((await svc.request('GET', '/api', { cookie })).body.error, 'NOT_FOUND');
    assert.equal((await svc.request('POST', '/api/nope', { cookie, body: {} })).status, 404);
    assert.equal((await svc.request('GET', '/api/nope')).body.error, 'NOT_FOUND');
    assert.equal((await svc.request('GET', '/api/tasks')).status, 401);
    assert.equal((await svc.request('GET', '/api/health')).status, 200);
  });

  it('does not put the static routes in the OpenAPI document', async () => {
    const doc = (await svc.request('GET', '/api/openapi.json')).body;
    assert.equal(Object.keys(doc.paths).some((p: string) => !p.startsWith('/api/')), false);
  });
});

describe('a service whose dashboard is not built', () => {
  let service: Service;
  let baseUrl: string;
  let dataDir: string;
  before(async () => {
    dataDir = await makeTempDir();
    const registry = new Registry();
    registry.addModule({ providers });
    for (const plugin of plugins ?? []) if (plugin.name !== 'web') registry.addPlugin(plugin);
    registry.addPlugin({ name: 'web', plugin: createWebPlugin({ distDir: `${dataDir}/no-such-dist` }) });
    service = await createService(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' }), { registry });
    baseUrl = (await service.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  });
  after(async () => { await service?.close(); });

  it('starts, and says how to build the dashboard', async () => {
    const res = await request(baseUrl, 'GET', '/tasks');
    assert.equal(res.status, 503);
    assert.match(res.text, /the dashboard is not built: run <code>npm run build:web<\/code>/i);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal((await request(baseUrl, 'GET', '/api/health')).status, 200);
    assert.equal((await request(baseUrl, 'GET', '/api/auth/check-setup')).body.setupRequired, true);
  });
});
