// The API fuzzer of api-fuzz.test.ts on the PostgreSQL store: the same rules, fewer requests per operation.
import { describe, it } from 'node:test';
import { createTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { fuzz, seed } from '../support/fuzz/fuzz-file.js';

const pgSkip = await postgresUnavailable();

describe(`API fuzzer, seed ${seed}`, () => {
  it('PostgreSQL store: the same rules, fewer requests per operation', { skip: pgSkip, timeout: 600_000 }, async (t) => {
    const db = await createTestDatabase('taskloom_fuzz');
    try {
      await fuzz(t, { STORAGE: 'postgres', DATABASE_URL: db.url() }, 0.3);
    } finally {
      await db.drop();
    }
  });
});
