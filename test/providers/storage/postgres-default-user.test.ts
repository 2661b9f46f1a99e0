import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { POSTGRES_URL, createTestDatabase, postgresUnavailable, type TestDatabase } from '../../support/postgres-database.js';

// A DATABASE_URL without a user name, in a process where USER and PGUSER are unset (containers, CI):
// the store connects as the operating-system account, as psql does, and PGUSER still comes first.
const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures', 'postgres-current-user.ts');
const osUser = os.userInfo().username;
const skip = await postgresUnavailable();
if (skip) console.log(`# skipped: ${skip}`);

function run(url: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.USER;
  delete env.USERNAME;
  if (!('PGUSER' in extraEnv)) delete env.PGUSER;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, url], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => resolve({ code, out: out.trim() }));
  });
}

describe('postgres: a DATABASE_URL without a user name', { skip }, () => {
  const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  let db: TestDatabase;
  let createdRole = false;
  let url: string;

  before(async () => {
    db = await createTestDatabase('taskloom_osuser');
    const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [osUser]);
    if (!rowCount) {
      // No role for this account on the test server: make one for the test, dropped after.
      await admin.query(`CREATE ROLE ${pg.escapeIdentifier(osUser)} LOGIN`);
      createdRole = true;
    }
    await admin.query(`ALTER DATABASE ${db.name} OWNER TO ${pg.escapeIdentifier(osUser)}`);
    const target = new URL(db.url());
    target.username = '';
    target.password = '';
    url = target.toString();
  });

  after(async () => {
    await db?.drop();
    if (createdRole) await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(osUser)}`);
    await admin.end();
  });

  it('connects as the operating-system user when USER and PGUSER are unset', async () => {
    assert.doesNotMatch(url, /@/, 'the URL names no user');
    const { code, out } = await run(url);
    assert.equal(out, `user ${osUser}`);
    assert.equal(code, 0);
  });

  it('still prefers PGUSER to the operating-system user', { skip: osUser === 'postgres' && 'the OS user is postgres' }, async () => {
    const { code, out } = await run(url, { PGUSER: 'postgres' });
    assert.equal(out, 'user postgres');
    assert.equal(code, 0);
  });
});
