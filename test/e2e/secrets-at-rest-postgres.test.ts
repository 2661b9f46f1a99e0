// Secrets at rest on PostgreSQL: planted through the real API, then looked for in every raw row of every table;
// instances sharing the database need the same SECRETS_KEY (a different or missing one stops the start), and
// `taskloom secrets rotate` (a real process) re-seals the rows with a new key.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../kernel/config.js';
import { formatSecretKey, generateSecretKey } from '../../layers/sealed-storage/secret-key.js';
import { openPostgresStorage } from '../../providers/storage/postgres/postgres-storage.js';
import { runTaskloom } from '../cli/cli-process.js';
import { startBaserowStandIn, type BaserowStandIn } from '../stand-ins/baserow.js';
import { assertSecretsServe, foundIn, plantSecrets, storedSessionSecret } from '../support/planted-secrets.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { makeTempDir, startService } from '../support/service.js';

const skip = await postgresUnavailable();
if (skip) console.log(`# skipped: ${skip}`);

/** Every row of every table of the database, as JSON text. */
async function dumpRows(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      "SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')");
    const parts: string[] = [];
    for (const { schema, name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`);
      parts.push(...rows.map((r) => r.row));
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

const keyIdsIn = (dump: string) => new Set([...dump.matchAll(/enc:v1:([0-9a-f]{16}):/g)].map((m) => m[1]));

describe('secrets at rest (PostgreSQL)', { skip, timeout: 240_000 }, () => {
  let db: TestDatabase;
  let baserow: BaserowStandIn;
  const dirs: string[] = [];
  const dir = async () => { const d = await makeTempDir(); dirs.push(d); return d; };
  before(async () => {
    db = await createTestDatabase('taskloom_secrets');
    baserow = await startBaserowStandIn({ token: 'baserow-pg-PLANTED-0b1c' });
  });
  after(async () => {
    await baserow?.close();
    await db?.drop();
    await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it('no planted secret is in any row; another instance needs the same SECRETS_KEY; rotate re-seals every row', async () => {
    const key = formatSecretKey(generateSecretKey()).trim();
    const env = { STORAGE: 'postgres', DATABASE_URL: db.url(), ALLOW_PRIVATE_NETWORKS: 'true' };
    // A secret an older version stored in plain text, before this version first starts.
    const legacy = await openPostgresStorage({ url: db.url() });
    await legacy.settings.set('headful.vncPassword', 'LeGaCy7q');
    await legacy.close();

    const dirA = await dir();
    let svc = await startService({ ...env, SECRETS_KEY: key }, dirA);
    const planted = await plantSecrets(svc.baseUrl, baserow);
    assert.equal(await svc.service.services.storage.settings.get('headful.vncPassword'), 'LeGaCy7q', 'the plain value still reads');
    await svc.close();
    assert.deepEqual(await fs.readdir(dirA).then((names) => names.filter((n) => n.startsWith('secrets.key'))), [], 'no key file with SECRETS_KEY');

    const dump = await dumpRows(db.url());
    assert.ok(dump.includes(baserow.url), 'the rows were read');
    assert.deepEqual(foundIn(dump, planted.secrets), []);
    assert.ok(!dump.includes('LeGaCy7q'), 'the plain value of the older version was sealed');
    const raw = await openPostgresStorage({ url: db.url() });
    const sessionSecret = await storedSessionSecret(raw, loadConfig({ SECRETS_KEY: key })).finally(() => raw.close());
    const secrets = [...planted.secrets, sessionSecret, 'LeGaCy7q'];
    assert.deepEqual(foundIn(dump, [sessionSecret]), []);

    // A second instance with its own DATA_DIR: without SECRETS_KEY, or with another one, it does not start.
    const dirB = await dir();
    await assert.rejects(startService(env, dirB), /sealed with key [0-9a-f]{16}, but SECRETS_KEY is unset.*same SECRETS_KEY/);
    assert.deepEqual(await fs.readdir(dirB).then((names) => names.filter((n) => n.startsWith('secrets.key'))), [], 'no stray key file');
    const other = generateSecretKey();
    await assert.rejects(startService({ ...env, SECRETS_KEY: formatSecretKey(other).trim() }, dirB), new RegExp(`but this instance has ${other.id} \\(SECRETS_KEY\\)`));
    svc = await startService({ ...env, SECRETS_KEY: key }, dirB);
    try {
      await assertSecretsServe(svc.baseUrl, planted, baserow);
    } finally {
      await svc.close();
    }

    // Rotation: the new key in SECRETS_KEY, the old one in SECRETS_KEY_PREVIOUS.
    const next = generateSecretKey();
    const rotated = await runTaskloom(['secrets', 'rotate', '--data-dir', dirA], {
      ...env, SECRETS_KEY: formatSecretKey(next).trim(), SECRETS_KEY_PREVIOUS: key, LOG_LEVEL: 'silent',
    });
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, new RegExp(`every secret is now sealed with key ${next.id} \\(SECRETS_KEY\\)`));
    assert.match(rotated.stdout, /Remove SECRETS_KEY_PREVIOUS/);
    const after = await dumpRows(db.url());
    assert.notEqual(after, dump);
    assert.deepEqual([...keyIdsIn(after)], [next.id], 'every sealed value (and the key check) uses the new key');
    assert.deepEqual(foundIn(after, secrets), []);
    await assert.rejects(startService({ ...env, SECRETS_KEY: key }, dirA), new RegExp(`sealed with key ${next.id}`));
    svc = await startService({ ...env, SECRETS_KEY: formatSecretKey(next).trim() }, dirA);
    try {
      await assertSecretsServe(svc.baseUrl, planted, baserow);
      assert.equal(await svc.service.services.storage.settings.get('headful.vncPassword'), 'LeGaCy7q');
    } finally {
      await svc.close();
    }
  });
});
