// GET /api/health on PostgreSQL: the database becomes unreachable (a TCP proxy between the service and the server
// is cut), health answers 503 degraded with the reason, and 200 ok again once it is back, without a restart.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { createTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { createTcpProxy } from '../support/tcp-proxy.js';

const skip = await postgresUnavailable();

async function healthUntil(svc: TestService, status: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.request('GET', '/api/health');
    if (res.status === status || Date.now() > deadline) return res;
    await sleep(200);
  }
}

it('PostgreSQL health: 503 degraded with storage_error while the database is unreachable, 200 ok once it is back', { skip, timeout: 60_000 }, async () => {
  const db = await createTestDatabase('taskloom_health');
  const target = new URL(db.url());
  const proxy = createTcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.up();
  let svc: TestService | undefined;
  try {
    svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db.url(proxy.port) });
    const { apiKey } = await setupAdmin(svc);
    const ok = await svc.request('GET', '/api/health');
    assert.deepEqual([ok.status, ok.body.status, ok.body.storage, 'storage_error' in ok.body], [200, 'ok', 'postgres', false]);

    await proxy.down();
    const started = Date.now();
    const down = await svc.request('GET', '/api/health');
    assert.equal(down.status, 503, down.text);
    assert.deepEqual([down.body.status, down.body.storage], ['degraded', 'postgres']);
    assert.match(down.body.storage_error, /PostgreSQL/);
    assert.ok(Date.now() - started < 5_000, 'health answers within its own time limit, not after a connection timeout');
    const unavailable = await svc.request('GET', '/api/tasks', { apiKey });
    assert.ok(unavailable.status >= 500 && typeof unavailable.body.error === 'string', `a clean error body while down: ${unavailable.text}`);

    await proxy.up();
    const back = await healthUntil(svc, 200, 15_000);
    assert.deepEqual([back.status, back.body.status, 'storage_error' in back.body], [200, 'ok', false], back.text);
    const tasks = await svc.request('GET', '/api/tasks', { apiKey });
    assert.equal(tasks.status, 200, 'the same process serves again, with the credentials kept in the database');
  } finally {
    await svc?.close();
    await proxy.down();
    await db.drop();
  }
});
