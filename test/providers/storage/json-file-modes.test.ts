// The JSON store's files hold users, settings and secrets: only the service's user may read them.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openJsonStorage } from '../../../providers/storage/json/index.js';
import { makeCredential } from '../../../testing/storage/harness.js';
import { tempDir } from './json-harness.js';

const modeOf = async (file: string) => (await fs.stat(file)).mode & 0o777;

async function modes(dir: string): Promise<Record<string, string>> {
  const names = (await fs.readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, (await modeOf(path.join(dir, name))).toString(8)] as const)));
}

describe('json store file modes', () => {
  it('creates its folder 0700 and every journal 0600, also after compaction; DATA_DIR keeps its mode', async (t) => {
    const dataDir = await tempDir();
    t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
    await fs.chmod(dataDir, 0o755);
    const dir = path.join(dataDir, 'store');
    const previous = process.umask(0o022);
    t.after(() => process.umask(previous));
    const storage = await openJsonStorage({ dir, compactMinBytes: 1 });
    try {
      for (let i = 0; i < 20; i++) await storage.settings.set('k', i);
      await storage.credentials.put(makeCredential());
      await storage.compact!(['settings', 'credentials']);
      await storage.check();
    } finally {
      await storage.close();
    }
    const files = await modes(dir);
    assert.deepEqual(Object.keys(files), ['browser-states.jsonl', 'claims.jsonl', 'credentials.jsonl', 'deliveries.jsonl', 'executions.jsonl', 'healing.jsonl', 'sessions.jsonl', 'settings.jsonl', 'tasks.jsonl', 'users.jsonl']);
    assert.deepEqual(new Set(Object.values(files)), new Set(['600']), JSON.stringify(files));
    assert.equal((await modeOf(dir)).toString(8), '700');
    assert.equal((await modeOf(dataDir)).toString(8), '755', 'DATA_DIR itself is left as it was');
  });

  it('narrows the files of an older store, made readable to others, when it opens them', async (t) => {
    const dir = await tempDir();
    t.after(() => fs.rm(dir, { recursive: true, force: true }));
    await fs.writeFile(path.join(dir, 'settings.jsonl'), `${JSON.stringify({ op: 'put', doc: { id: 'a', value: 1 } })}\n`, { mode: 0o644 });
    await fs.chmod(path.join(dir, 'settings.jsonl'), 0o644);
    const storage = await openJsonStorage({ dir });
    try {
      assert.equal(await storage.settings.get('a'), 1);
    } finally {
      await storage.close();
    }
    assert.equal((await modeOf(path.join(dir, 'settings.jsonl'))).toString(8), '600');
  });
});
