import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import routePolicy from '../../kernel/http/route-policy.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

// The handoff page of a run waiting for a person checks its own single-use link and cookie (plugins/studio/handoff.ts);
// accepting an invitation checks its one-time token (plugins/auth/invitation-routes.ts).
const PUBLIC = new Set(['/api/health', '/api/auth/check-setup', '/api/auth/setup', '/api/auth/login',
  '/api/studio/handoff/:id', '/api/studio/handoff/:id/resume', '/api/invitations/accept']);

describe('route policy', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await setupAdmin(svc);
  });
  after(async () => { await svc.close(); });

  it('declares public exactly the endpoints the interface makes public (plus the API docs)', () => {
    const publicApi = svc.service.app.routeTable
      .filter((r) => r.auth === 'public' && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json')
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => r.url);
    assert.deepEqual(new Set(publicApi), PUBLIC);
  });

  it('answers 401 to an anonymous caller on every non-public route', async () => {
    const routes = svc.service.app.routeTable.filter((r) => r.auth !== 'public' && r.method !== 'HEAD');
    assert.ok(routes.length >= 5, `only ${routes.length} protected routes registered`);
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, 'x').replace(/\*$/, 'x');
      const res = await svc.request(route.method, url, route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} });
      assert.equal(res.status, 401, `${route.method} ${route.url} answered ${res.status}`);
      assert.equal(res.body.error, 'UNAUTHORIZED', `${route.method} ${route.url}`);
    }
  });

  it('refuses at start-up a non-public route that declares no scope (config.access)', async () => {
    const app = Fastify();
    app.decorate('services', {} as never);
    await app.register(cookie);
    await app.register(routePolicy);
    await assert.rejects(
      (async () => {
        app.get('/api/unscoped', { config: { auth: 'authenticated' } }, async () => ({}));
        await app.ready();
      })(),
      /GET \/api\/unscoped declares no access scope \(config\.access: read \| run \| write \| admin\)/,
    );
    await app.close();
  });

  it('refuses at start-up a route that declares no policy', async () => {
    const app = Fastify();
    app.decorate('services', {} as never);
    await app.register(cookie);
    await app.register(routePolicy);
    await assert.rejects(
      (async () => {
        app.get('/api/undeclared', async () => ({}));
        await app.ready();
      })(),
      /declares no auth policy/,
    );
    await app.close();
  });
});
