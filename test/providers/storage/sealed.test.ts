// The kernel's sealing of secrets wraps every storage provider: the storage contract must still hold through it.
// Here every setting counts as secret, so each settings case goes through sealing; credential tokens always do.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { Keyring } from '../../../layers/sealed-storage/keyring.js';
import { sealStorage } from '../../../layers/sealed-storage/open-secret-storage.js';
import { generateSecretKey } from '../../../layers/sealed-storage/secret-key.js';
import { storageContract, type StorageHarness } from '../../../testing/storage.contract.js';
import { makeCredential } from '../../../testing/storage/harness.js';
import { createJsonHarness } from './json-harness.js';

const keyring = new Keyring({ key: generateSecretKey(), source: 'test' });
const sealAll = (raw: StorageProvider) => sealStorage(raw, keyring, () => true);

async function sealedJsonHarness(): Promise<StorageHarness & { raw: StorageProvider; dir: string }> {
  const inner = await createJsonHarness();
  return {
    dir: inner.dir,
    get raw() {
      return inner.storage;
    },
    get storage() {
      return sealAll(inner.storage);
    },
    reopen: async () => sealAll(await inner.reopen()),
    cleanup: () => inner.cleanup(),
  };
}

storageContract('json, sealed', sealedJsonHarness);

describe('sealed storage', () => {
  it('stores settings and credential tokens sealed, reads them opened, and compaction leaves no plain copy', async (t) => {
    const h = await sealedJsonHarness();
    t.after(() => h.cleanup());
    const sealed = h.storage;
    await h.raw.settings.set('legacy', { key: 'PLANTED-legacy-plain' });
    await h.raw.credentials.put(makeCredential({ id: 'c1', config: { baseUrl: 'https://b.example', token: 'PLANTED-legacy-token' } }));
    assert.deepEqual(await sealed.settings.get('legacy'), { key: 'PLANTED-legacy-plain' }, 'plain text of an older store is read');
    assert.equal((await sealed.credentials.get('c1'))?.config.token, 'PLANTED-legacy-token');
    await sealed.settings.update('legacy', (v: { key: string } | undefined) => ({ key: `${v!.key}-2` }));
    await sealed.credentials.update('c1', (c) => ({ ...c, name: 'renamed' }));
    await sealed.settings.set('fresh', 'PLANTED-fresh');
    await sealed.credentials.put(makeCredential({ id: 'c2', config: { baseUrl: 'https://b.example', token: 'PLANTED-fresh-token', extra: 7 } }));
    assert.equal(await sealed.settings.get('fresh'), 'PLANTED-fresh');
    assert.deepEqual((await sealed.credentials.list()).map((c) => [c.id, c.config.token]), [['c1', 'PLANTED-legacy-token'], ['c2', 'PLANTED-fresh-token']]);
    assert.deepEqual((await sealed.credentials.get('c2'))?.config.extra, 7);
    const raw = await h.raw.credentials.get('c2');
    assert.equal(raw?.config.baseUrl, 'https://b.example', 'the base URL stays readable');
    assert.match(String(raw?.config.token), /^enc:v1:/);
    assert.match(String(raw?.config.extra), /^enc:v1:/);

    const files = async () => (await Promise.all(['settings.jsonl', 'credentials.jsonl'].map((f) => fs.readFile(path.join(h.dir, f), 'utf8')))).join('');
    assert.match(await files(), /PLANTED-legacy/, 'before compaction the journal still holds the superseded plain lines');
    await h.raw.compact!(['settings', 'credentials']);
    assert.doesNotMatch(await files(), /PLANTED/);
    const reopened = await h.reopen();
    assert.deepEqual(await reopened.settings.get('legacy'), { key: 'PLANTED-legacy-plain-2' });
    assert.equal((await reopened.credentials.get('c1'))?.name, 'renamed');
  });
});
