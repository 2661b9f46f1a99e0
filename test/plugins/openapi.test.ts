import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../support/service.js';

describe('OpenAPI document and reference', () => {
  let svc: TestService;
  before(async () => { svc = await startService(); });
  after(async () => { await svc.close(); });

  it('documents every API route with its method', async () => {
    const doc = await svc.request('GET', '/api/openapi.json');
    assert.equal(doc.status, 200);
    const routes = svc.service.app.routeTable.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json' && r.method !== 'HEAD',
    );
    assert.ok(routes.length > 5);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      assert.ok(doc.body.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path} is missing from the document`);
    }
  });

  it('marks protected operations with their security schemes and public ones with none', async () => {
    const { body } = await svc.request('GET', '/api/openapi.json');
    assert.deepEqual(body.paths['/api/health'].get.security, []);
    assert.deepEqual(body.paths['/api/auth/me'].get.security, [{ session: [] }]);
    assert.ok(body.paths['/api/settings/api-key'].get.security.length >= 2);
  });

  it('serves a browsable reference at /api/docs', async () => {
    const res = await fetch(`${svc.baseUrl}/api/docs`, { redirect: 'follow' });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /swagger/i);
  });
});
