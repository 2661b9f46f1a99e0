// `taskloom secrets rotate` on the JSON store, run as a real process: refused while the service runs, then every
// secret re-sealed with a new key file; a rotation stopped half way loses nothing and resumes with the same key.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { loadConfig } from '../../kernel/config.js';
import { readKeyFile } from '../../layers/sealed-storage/key-files.js';
import { rotateSecrets } from '../../layers/sealed-storage/rotate.js';
import { keysOf } from '../../layers/sealed-storage/settings.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { startBaserowStandIn, type BaserowStandIn } from '../stand-ins/baserow.js';
import { assertSecretsServe, foundIn, plantSecrets, readTree, storedSessionSecret, type Planted } from '../support/planted-secrets.js';
import { makeTempDir, startService } from '../support/service.js';
import { runTaskloom } from './cli-process.js';

const env = { ALLOW_PRIVATE_NETWORKS: 'true' };
const keyIdsIn = (text: string) => new Set([...text.matchAll(/enc:v1:([0-9a-f]{16}):/g)].map((m) => m[1]));
const keyFiles = async (dir: string) => (await fs.readdir(dir)).filter((name) => name.startsWith('secrets.key')).sort();
const keyIdOf = async (file: string) => (await readKeyFile(file))?.id;
const rotate = (dataDir: string) => runTaskloom(['secrets', 'rotate', '--data-dir', dataDir], { LOG_LEVEL: 'silent' });

describe('taskloom secrets rotate (JSON store)', { timeout: 180_000 }, () => {
  let baserow: BaserowStandIn;
  let dataDir: string;
  let planted: Planted;
  let secrets: string[];
  before(async () => {
    baserow = await startBaserowStandIn({ token: 'baserow-rotate-PLANTED-2f4e' });
    dataDir = await makeTempDir();
    const svc = await startService(env, dataDir);
    try {
      planted = await plantSecrets(svc.baseUrl, baserow);
    } finally {
      await svc.close();
    }
    const raw = await openJsonStorage({ dir: path.join(dataDir, 'store') });
    secrets = [...planted.secrets, await storedSessionSecret(raw, loadConfig({ DATA_DIR: dataDir })).finally(() => raw.close())];
  });
  after(async () => {
    await baserow?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is refused while the service runs on the store, and names it', async () => {
    const svc = await startService(env, dataDir);
    try {
      const refused = await rotate(dataDir);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, new RegExp(`instance \\S+ \\(pid ${process.pid} on .+\\) is running on this store: stop every instance, then rotate`));
    } finally {
      await svc.close();
    }
  });

  it('re-seals every secret with a new key file: the raw store changes, the values do not', async () => {
    const oldId = await keyIdOf(path.join(dataDir, 'secrets.key'));
    const before = await readTree(path.join(dataDir, 'store'));
    assert.deepEqual([...keyIdsIn(before)], [oldId]);
    const rotated = await rotate(dataDir);
    assert.equal(rotated.code, 0, rotated.stderr);
    const newId = await keyIdOf(path.join(dataDir, 'secrets.key'));
    assert.notEqual(newId, oldId);
    assert.match(rotated.stdout, new RegExp(`Sealed \\d+ of \\d+ secret\\(s\\) again; every secret is now sealed with key ${newId} \\(DATA_DIR/secrets.key\\)`));
    assert.deepEqual(await keyFiles(dataDir), ['secrets.key'], 'the new and old key files are gone once done');
    assert.equal((await fs.stat(path.join(dataDir, 'secrets.key'))).mode & 0o777, 0o600);
    const after = await readTree(path.join(dataDir, 'store'));
    assert.deepEqual([...keyIdsIn(after)], [newId], 'no value of the old key is left, not even in a superseded journal line');
    assert.deepEqual(foundIn(after, secrets), []);
    const svc = await startService(env, dataDir);
    try {
      await assertSecretsServe(svc.baseUrl, planted, baserow);
    } finally {
      await svc.close();
    }
  });

  it('stopped half way, every secret still opens; run again, it finishes with the same new key', async () => {
    const oldId = await keyIdOf(path.join(dataDir, 'secrets.key'));
    const raw = await openJsonStorage({ dir: path.join(dataDir, 'store') });
    // The disk fails once the settings are re-sealed, before the credentials are.
    const failing = new Proxy(raw, {
      get: (target, property) => property === 'credentials'
        ? { ...target.credentials, list: () => target.credentials.list(), update: () => Promise.reject(new Error('disk failed')) }
        : Reflect.get(target, property),
    }) as StorageProvider;
    try {
      await assert.rejects(rotateSecrets(failing, keysOf(loadConfig({ DATA_DIR: dataDir }))), /disk failed/);
    } finally {
      await raw.close();
    }
    assert.deepEqual(await keyFiles(dataDir), ['secrets.key', 'secrets.key.new']);
    assert.equal(await keyIdOf(path.join(dataDir, 'secrets.key')), oldId, 'the old key stays current until the end');
    const nextId = await keyIdOf(path.join(dataDir, 'secrets.key.new'));
    assert.equal((await fs.stat(path.join(dataDir, 'secrets.key.new'))).mode & 0o777, 0o600);
    assert.deepEqual([...keyIdsIn(await readTree(path.join(dataDir, 'store')))].sort(), [oldId, nextId].sort(), 'a mixed store');

    const svc = await startService(env, dataDir);
    try {
      await assertSecretsServe(svc.baseUrl, planted, baserow);
    } finally {
      await svc.close();
    }
    const again = await rotate(dataDir);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await keyIdOf(path.join(dataDir, 'secrets.key')), nextId);
    assert.deepEqual(await keyFiles(dataDir), ['secrets.key']);
    const tree = await readTree(path.join(dataDir, 'store'));
    assert.deepEqual([...keyIdsIn(tree)], [nextId]);
    assert.deepEqual(foundIn(tree, secrets), []);
  });

  it('refuses bad options and a missing store with exit 2', async () => {
    const bogus = await runTaskloom(['secrets', 'rotate', '--bogus']);
    assert.equal(bogus.code, 2, bogus.stderr);
    const empty = await makeTempDir();
    try {
      const none = await rotate(empty);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no JSON store in .*: pass --data-dir or set DATA_DIR/);
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
