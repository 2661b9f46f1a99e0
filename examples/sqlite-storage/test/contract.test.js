// The storage contract suite taskloom exports, run against this provider, and what is particular to SQLite.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createTestProvider, makeCredential, makeTask, storageContract } from 'taskloom/testing';
import sqliteModule, { sqliteStorage } from '../index.js';
import { openSqliteStorage } from '../src/open.js';

const tempDir = () => mkdtemp(path.join(tmpdir(), 'taskloom-sqlite-'));

/** @returns {Promise<import('taskloom/testing').StorageHarness>} */
async function harness() {
  const dir = await tempDir();
  const file = path.join(dir, 'taskloom.sqlite');
  let storage = await openSqliteStorage({ file });
  return {
    get storage() { return storage; },
    async reopen() {
      await storage.close();
      storage = await openSqliteStorage({ file });
      return storage;
    },
    async cleanup() {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

storageContract('sqlite', harness);

describe('sqlite storage', () => {
  it('is what TASKLOOM_MODULES loads: { providers: [the storage provider sqlite] }', () => {
    assert.deepEqual(sqliteModule.providers, [sqliteStorage]);
    assert.deepEqual([sqliteStorage.capability, sqliteStorage.id], ['storage', 'sqlite']);
  });

  it('created as taskloom creates it: one WAL-mode database file under DATA_DIR (made when missing), named by SQLITE_FILE', async () => {
    const parent = await tempDir();
    const dataDir = path.join(parent, 'data');
    const created = await createTestProvider(sqliteStorage, { dataDir, env: { SQLITE_FILE: 'loom.db' } });
    try {
      const task = makeTask();
      await created.instance.tasks.put(task);
      assert.equal(created.instance.kind, 'sqlite');
      const files = (await readdir(dataDir)).sort();
      assert.deepEqual(files.filter((name) => !name.startsWith('loom.db')), [], `other files: ${files.join(', ')}`);
      assert.ok(files.includes('loom.db'));
      const reader = new Database(path.join(dataDir, 'loom.db'), { readonly: true });
      try {
        assert.equal(reader.pragma('journal_mode', { simple: true }), 'wal');
        assert.equal(JSON.parse(/** @type {{ body: string }} */ (reader.prepare('SELECT body FROM tasks').get()).body).id, task.id);
      } finally {
        reader.close();
      }
    } finally {
      await created.instance.close();
      await created.close();
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('refuses a SQLITE_FILE that is not a plain name, naming the variable', async () => {
    await assert.rejects(createTestProvider(sqliteStorage, { dataDir: tmpdir(), env: { SQLITE_FILE: '../elsewhere.db' } }), /SQLITE_FILE/);
  });

  it('two instances on one file: one claim wins, and each reads what the other wrote', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'shared.sqlite');
    const [a, b] = [await openSqliteStorage({ file }), await openSqliteStorage({ file })];
    try {
      const wins = await Promise.all([a.claims.claim('fire:09:00', 'a', 60_000), b.claims.claim('fire:09:00', 'b', 60_000)]);
      assert.equal(wins.filter(Boolean).length, 1);
      const task = makeTask();
      await a.tasks.put(task);
      assert.deepEqual(await b.tasks.get(task.id), task);
      const revision = await b.tasks.revision?.();
      await a.tasks.update(task.id, (current) => ({ ...current, name: 'renamed' }));
      assert.notEqual(await b.tasks.revision?.(), revision, 'the other instance sees the revision change');
    } finally {
      await a.close();
      await b.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('compact() leaves no overwritten or deleted secret in any of its files', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'taskloom.sqlite');
    const storage = await openSqliteStorage({ file });
    try {
      const credential = makeCredential({ config: { token: 'OLD-SECRET-7f3a' } });
      await storage.credentials.put(credential);
      await storage.settings.set('auth.apiKey', 'OLD-SETTING-91bc');
      await storage.credentials.put({ ...credential, config: { token: 'sealed:new' } });
      await storage.settings.delete('auth.apiKey');
      await storage.compact?.(['settings', 'credentials']);
      for (const name of await readdir(dir)) {
        const bytes = await readFile(path.join(dir, name));
        assert.ok(!bytes.includes('OLD-SECRET-7f3a') && !bytes.includes('OLD-SETTING-91bc'), `${name} still holds an old secret`);
      }
      assert.deepEqual((await storage.credentials.get(credential.id))?.config, { token: 'sealed:new' });
    } finally {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
