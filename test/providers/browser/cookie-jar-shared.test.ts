// The cookie jar shared by instances on one PostgreSQL database: two instances (two storages, each its own pool
// of connections, as two processes have) whose runs end together all keep their cookies. Before, each merge read
// the jar and then wrote it whole, and a write from the other instance in between was lost (55 of 60 kept).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserCookie } from '../../../kernel/contracts/browser.js';
import { createCookieJar } from '../../../layers/browser-pool/cookie-jar.js';
import { settingsCookieStore } from '../../../layers/browser-pool/settings-cookie-store.js';
import { openPostgresStorage, type PostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../../support/postgres-database.js';

const skip = await postgresUnavailable();
const cookie = (name: string): BrowserCookie => ({ name, value: '1', domain: 'example.com', path: '/', expires: -1 });

describe('cookie jar shared by two instances on one PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  let a: PostgresStorage;
  let b: PostgresStorage;
  before(async () => {
    db = await createTestDatabase('taskloom_cookies');
    a = await openPostgresStorage({ url: db.url(), poolSize: 10 });
    b = await openPostgresStorage({ url: db.url(), poolSize: 10 });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('60 runs ending together, 30 on each instance, keep 60 cookies', async () => {
    const jars = [createCookieJar(settingsCookieStore(a.settings)), createCookieJar(settingsCookieStore(b.settings))];
    const loaded = await jars[0]!.load();
    await Promise.all(Array.from({ length: 60 }, (_, i) => jars[i % 2]!.merge(loaded, [cookie(`c${i}`)])));
    const kept = await jars[1]!.load();
    assert.equal(kept.length, 60, `kept ${kept.length} of 60`);
    assert.equal(await jars[0]!.clear('example.com'), 60);
  });
});
