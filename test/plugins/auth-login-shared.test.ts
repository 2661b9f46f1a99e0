// Login limits counted in the storage: two guards, as two instances would have, over one PostgreSQL database (two
// connections pools, as two processes) count the same failures. The HTTP path through two real processes is in
// test/e2e/multi-instance-sessions.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_LIMITS } from '../../plugins/auth/login-guard.js';
import { SharedLoginGuard } from '../../plugins/auth/shared-login-guard.js';
import { openPostgresStorage, type PostgresStorage } from '../../providers/storage/postgres/postgres-storage.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';

const skip = await postgresUnavailable();

describe('login limits shared through the storage', { skip }, () => {
  let db: TestDatabase;
  const stores: PostgresStorage[] = [];
  let a: SharedLoginGuard, b: SharedLoginGuard;

  before(async () => {
    db = await createTestDatabase('taskloom_login');
    stores.push(await openPostgresStorage({ url: db.url() }), await openPostgresStorage({ url: db.url() }));
    a = new SharedLoginGuard(stores[0]!.counters);
    b = new SharedLoginGuard(stores[1]!.counters);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await db?.drop();
  });

  it('20 failures of one pair alternating between two instances: ten get through, then both refuse', async () => {
    const verdicts = [];
    for (let i = 0; i < 20; i++) verdicts.push(await (i % 2 === 0 ? a : b).attempt('ada@example.com', '203.0.113.9'));
    const passed = verdicts.map((v) => 'delayMs' in v);
    assert.deepEqual(passed, [...Array(LOGIN_LIMITS.perPair).fill(true), ...Array(20 - LOGIN_LIMITS.perPair).fill(false)]);
    const last = verdicts[19]!;
    assert.ok('retryAfterSeconds' in last && last.retryAfterSeconds > 890 && last.retryAfterSeconds <= 900, JSON.stringify(last));
  });

  it('the account is slowed down on both instances alike; a success on one clears its pair for the other', async () => {
    const fromElsewhere = await b.attempt('ada@example.com', '198.51.100.1');
    assert.ok('delayMs' in fromElsewhere && fromElsewhere.delayMs === 1000, 'the ten failures counted for the account, on B');
    await fromElsewhere.succeeded();
    const next = await a.attempt('ada@example.com', '198.51.100.2');
    assert.ok('delayMs' in next && next.delayMs === 1000, 'the success took its own attempt back from the account: still 10, not 11');
    await next.withdraw();
    for (let i = 0; i < 9; i++) assert.ok('delayMs' in (await a.attempt('grace@example.com', '198.51.100.3')));
    const right = await b.attempt('grace@example.com', '198.51.100.3');
    assert.ok('delayMs' in right);
    await right.succeeded();
    const after = await Promise.all(Array.from({ length: 10 }, () => a.attempt('grace@example.com', '198.51.100.3')));
    assert.ok(after.every((v) => 'delayMs' in v), 'the pair starts afresh on A after the success on B');
  });

  it('a burst of 40 in parallel over both instances passes exactly the limit', async () => {
    const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).attempt('burst@example.com', '203.0.113.77')));
    assert.equal(verdicts.filter((v) => 'delayMs' in v).length, LOGIN_LIMITS.perPair);
  });

  it('an address failing over many accounts is held to its own limit (30) across both', async () => {
    const verdicts = [];
    for (let i = 0; i < 36; i++) verdicts.push(await (i % 2 ? a : b).attempt(`user${i}@example.com`, '203.0.113.200'));
    assert.equal(verdicts.filter((v) => 'delayMs' in v).length, LOGIN_LIMITS.perAddress);
    // The refusal by address took back the pair's count: that account may try from elsewhere unslowed.
    assert.ok('retryAfterSeconds' in verdicts[35]!);
  });
});
