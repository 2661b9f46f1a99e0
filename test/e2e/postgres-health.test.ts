// GET /api/health on PostgreSQL: the database becomes unreachable (a TCP proxy between the service and the server
// is cut), health answers 503 degraded with the reason, and 200 ok again once it is back, without a restart.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { createProxiedTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

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
  const db = await createProxiedTestDatabase('taskloom_health');
  const { proxy } = db;
  let svc: TestService | undefined;
  try {
    svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db.proxiedUrl });
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
    await db.close();
  }
});

/** A request that gives up on the client side after `limitMs`: resolves to its status (0 when it got no answer) and time taken. */
async function timedRequest(baseUrl: string, path: string, apiKey: string | undefined, limitMs: number) {
  const started = Date.now();
  try {
    const res = await fetch(baseUrl + path, { headers: apiKey ? { 'x-api-key': apiKey } : {}, signal: AbortSignal.timeout(limitMs) });
    await res.text();
    return { status: res.status, ms: Date.now() - started };
  } catch {
    return { status: 0, ms: Date.now() - started };
  }
}

it('PostgreSQL black-holed three times (sockets open, no bytes): every request answers, and health is 200 within 10 s of the peer answering again', { skip, timeout: 240_000 }, async () => {
  const db = await createProxiedTestDatabase('taskloom_blackhole');
  const { proxy } = db;
  let svc: TestService | undefined;
  try {
    svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db.proxiedUrl });
    const { apiKey } = await setupAdmin(svc);
    const baseUrl = svc.baseUrl;
    const during: Array<Promise<{ status: number; ms: number }>> = [];
    for (let episode = 1; episode <= 3; episode++) {
      // Connections in use and idle ones alike: fill the pool before the peer goes silent.
      await Promise.all(Array.from({ length: 12 }, () => timedRequest(baseUrl, '/api/tasks', apiKey, 30_000)));
      proxy.blackhole();
      for (let i = 0; i < 12; i++) during.push(timedRequest(baseUrl, '/api/tasks', apiKey, 90_000));
      const health = await timedRequest(baseUrl, '/api/health', undefined, 30_000);
      assert.equal(health.status, 503, `episode ${episode}: health says degraded while the peer is silent`);
      assert.ok(health.ms < 5_000, `episode ${episode}: health answered in ${health.ms} ms, within its own time limit`);
      await sleep(3_000);
      await proxy.up();
    }
    const restored = Date.now();
    let healthy: number | undefined;
    while (Date.now() - restored < 30_000) {
      const res = await timedRequest(baseUrl, '/api/health', undefined, 10_000);
      if (res.status === 200) {
        healthy = Date.now() - restored;
        break;
      }
      await sleep(200);
    }
    console.log(`# health back to 200 ${healthy ?? 'never (30 s)'} ms after the peer answered again`);
    assert.ok(healthy !== undefined && healthy < 10_000, `health back to 200 within 10 s of the peer answering (took ${healthy ?? '> 30000'} ms)`);
    // Requests already waiting on a silent connection end at the query time limit; the pool serves again after it.
    let served: number | undefined;
    while (Date.now() - restored < 60_000) {
      if ((await timedRequest(baseUrl, '/api/tasks', apiKey, 30_000)).status === 200) {
        served = Date.now() - restored;
        break;
      }
      await sleep(500);
    }
    console.log(`# the API served again ${served ?? 'never (60 s)'} ms after the peer answered again`);
    assert.ok(served !== undefined, 'the API serves again from the same process');
    const answers = await Promise.all(during);
    const unanswered = answers.filter((a) => a.status === 0).length;
    console.log(`# requests sent while black-holed: ${answers.length}, statuses ${[...new Set(answers.map((a) => a.status))].join('/')}, slowest ${Math.max(...answers.map((a) => a.ms))} ms`);
    assert.equal(unanswered, 0, 'every request made while the peer was silent got an answer (none hung for 90 s)');
    assert.ok(answers.every((a) => a.status === 200 || a.status === 503), `each answered 200 or 503: ${answers.map((a) => a.status).join(',')}`);
  } finally {
    await svc?.close();
    await db.close();
  }
});
