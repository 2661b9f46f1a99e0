// GET /api/health is public: a dashboard that polls it sends its session cookie, and while PostgreSQL is
// unreachable the answer must still be the health body (503 degraded, with the reason), not an error body from a
// session lookup the route never needed. The other public routes that need no storage answer as well.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProxiedTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { setupAdmin, startService, type ApiResponse, type TestService } from '../support/service.js';

const skip = await postgresUnavailable();

it('health with a session cookie while PostgreSQL is down: the degraded health body, not STORAGE_UNAVAILABLE', { skip, timeout: 60_000 }, async () => {
  const db = await createProxiedTestDatabase('taskloom_health_cookie');
  const { proxy } = db;
  let svc: TestService | undefined;
  try {
    svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db.proxiedUrl });
    const { cookie, apiKey } = await setupAdmin(svc);
    const up = await svc.request('GET', '/api/health', { cookie });
    assert.deepEqual([up.status, up.body.status], [200, 'ok'], up.text);

    await proxy.down();
    for (const credentials of [{ cookie }, { apiKey }, { cookie, apiKey }, {}]) {
      const down: ApiResponse = await svc.request('GET', '/api/health', credentials);
      const sent = Object.keys(credentials).join(' and ') || 'nothing';
      assert.equal(down.status, 503, `${sent}: ${down.text}`);
      assert.deepEqual([down.body.status, down.body.storage, 'error' in down.body], ['degraded', 'postgres', false], `${sent}: ${down.text}`);
      assert.match(down.body.storage_error, /PostgreSQL/);
    }
    // A route that needs a session still says plainly that storage is down.
    const me = await svc.request('GET', '/api/auth/me', { cookie });
    assert.deepEqual([me.status, me.body.error], [503, 'STORAGE_UNAVAILABLE'], me.text);
  } finally {
    await svc?.close();
    await db.close();
  }
});
