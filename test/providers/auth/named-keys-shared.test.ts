// Named API keys over one PostgreSQL database seen by two local auth providers (two instances, two pools): a key
// made on one works on the other, and revoking it on one is refused on the other at once (nothing cached).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthProvider } from '../../../kernel/contracts/auth.js';
import { Errors } from '../../../kernel/errors.js';
import { createLocalAuth } from '../../../providers/auth/local/index.js';
import { openPostgresStorage, type PostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../../support/postgres-database.js';

const skip = await postgresUnavailable();

describe('named API keys shared through the storage', { skip }, () => {
  let db: TestDatabase;
  const stores: PostgresStorage[] = [];
  let a: AuthProvider, b: AuthProvider;

  before(async () => {
    db = await createTestDatabase('taskloom_named_keys');
    stores.push(await openPostgresStorage({ url: db.url() }), await openPostgresStorage({ url: db.url() }));
    a = createLocalAuth(stores[0]!);
    b = createLocalAuth(stores[1]!);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await db?.drop();
  });

  it('a key made on one instance works on the other until revoked there, then is refused on both at once', async () => {
    const { key, apiKey } = await a.createApiKey!({ name: 'shared', scopes: ['run'] });
    assert.equal((await b.resolveApiKey!(key))?.id, apiKey.id);
    assert.equal((await a.resolveApiKey!(key))?.id, apiKey.id);
    await b.revokeApiKey!(apiKey.id);
    for (const instance of [a, b]) {
      await assert.rejects(instance.resolveApiKey!(key), (error) => Errors.UNAUTHORIZED.is(error) && /revoked/.test((error as Error).message));
    }
    assert.equal((await a.listApiKeys!())[0]!.revokedAt !== null, true);
  });

  it('keys created on both instances at once are all kept (the list is changed atomically)', async () => {
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).createApiKey!({ name: `k${i}`, scopes: ['read'] })));
    const ids = new Set((await b.listApiKeys!()).map((k) => k.id));
    for (const { apiKey } of made) assert.ok(ids.has(apiKey.id), `${apiKey.name} was lost`);
  });
});
