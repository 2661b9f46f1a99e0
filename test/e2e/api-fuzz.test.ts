// A bounded, seeded fuzzer over every operation of /api/openapi.json on a real service on the JSON store (the
// PostgreSQL store: api-fuzz-postgres.test.ts, a file of its own so the two run side by side): good and hostile
// requests, with and without credentials. No answer may be a 5xx, every status and error code must be one the
// document lists for the operation, every error body `{ error, details, requestId }`, no stack trace and no
// planted secret anywhere. FUZZ_SEED=<n> explores other requests, FUZZ_REQUESTS=<n> sends more per operation.
import { describe, it } from 'node:test';
import { fuzz, seed } from '../support/fuzz/fuzz-file.js';

describe(`API fuzzer, seed ${seed}`, () => {
  it('JSON store: no 5xx, only documented statuses and codes, no stack trace, no planted secret', { timeout: 600_000 }, async (t) => {
    await fuzz(t, {}, 1);
  });
});
