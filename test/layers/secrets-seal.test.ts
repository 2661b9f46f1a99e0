// The sealing primitives: AES-256-GCM envelopes bound to their place, the keyring, and the key files on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isEnvelope } from '../../layers/sealed-storage/envelope.js';
import { readKeyFile, writeKeyFile } from '../../layers/sealed-storage/key-files.js';
import { Keyring } from '../../layers/sealed-storage/keyring.js';
import { loadKeyring } from '../../layers/sealed-storage/load-keyring.js';
import { keysOf } from '../../layers/sealed-storage/settings.js';
import { formatSecretKey, generateSecretKey, secretKey } from '../../layers/sealed-storage/secret-key.js';
import { SecretsError } from '../../layers/sealed-storage/secrets-error.js';
import { makeTempDir } from '../support/service.js';

const ring = (key = generateSecretKey(), others: ReturnType<typeof generateSecretKey>[] = []) =>
  new Keyring({ key, source: 'test' }, others.map((k) => ({ key: k, source: 'old' })));

describe('sealed values', () => {
  it('round-trip any JSON value; the envelope names the key and shows nothing of the value', () => {
    const keyring = ring();
    for (const value of ['sk-PLANTED-1234', { providerA: ['k1', 'k2'] }, [1, 2], 42, null, true]) {
      const sealed = keyring.seal(value, 'settings:x');
      assert.ok(isEnvelope(sealed), sealed);
      assert.ok(sealed.startsWith(`enc:v1:${keyring.current.key.id}:`));
      assert.ok(!sealed.includes('PLANTED') && !sealed.includes(Buffer.from('sk-PLANTED').toString('base64').slice(0, 12)));
      assert.deepEqual(keyring.open(sealed, 'settings:x'), value);
    }
    assert.notEqual(keyring.seal('same', 'p'), keyring.seal('same', 'p'), 'a fresh IV for every seal');
  });

  it('refuse to open in another place, after tampering, or without their key; plain text passes through', () => {
    const keyring = ring();
    const sealed = keyring.seal('token', 'credentials:a:token');
    assert.throws(() => keyring.open(sealed, 'credentials:b:token'), SecretsError, 'moved to another record');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    assert.throws(() => keyring.open(flipped, 'credentials:a:token'), /was changed or moved/);
    assert.throws(() => ring().open(sealed, 'credentials:a:token'), (error: Error) =>
      error instanceof SecretsError && error.message.includes(keyring.current.key.id) && /SECRETS_KEY/.test(error.message));
    assert.equal(keyring.open('plain-from-an-older-version', 'p'), 'plain-from-an-older-version');
    assert.deepEqual(keyring.open({ a: 1 }, 'p'), { a: 1 });
  });

  it('a ring opens what any of its keys sealed and seals with the current one', () => {
    const old = generateSecretKey();
    const sealedOld = ring(old).seal('v', 'p');
    const keyring = ring(generateSecretKey(), [old]);
    assert.equal(keyring.open(sealedOld, 'p'), 'v');
    assert.equal(keyring.needsSealing(sealedOld), true);
    assert.equal(keyring.needsSealing(keyring.seal('v', 'p')), false);
    assert.equal(keyring.needsSealing('plain'), true);
  });

  it('key ids depend only on the key', () => {
    const bytes = Buffer.alloc(32, 3);
    assert.equal(secretKey(bytes).id, secretKey(Buffer.from(bytes)).id);
    assert.notEqual(secretKey(bytes).id, secretKey(Buffer.alloc(32, 4)).id);
    assert.match(secretKey(bytes).id, /^[0-9a-f]{16}$/);
  });
});

describe('key files', () => {
  it('are written 0600 and durable, an existing one wins unless replaced, and a readable copy is narrowed', async (t) => {
    const dir = await makeTempDir();
    t.after(() => fs.rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'secrets.key');
    const first = generateSecretKey();
    assert.equal(await writeKeyFile(file, first), true);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    assert.equal(await writeKeyFile(file, generateSecretKey()), false, 'a second creator loses');
    assert.equal((await readKeyFile(file))?.id, first.id);
    const second = generateSecretKey();
    assert.equal(await writeKeyFile(file, second, { replace: true }), true);
    assert.equal((await readKeyFile(file))?.id, second.id);
    assert.deepEqual((await fs.readdir(dir)).sort(), ['secrets.key'], 'no temporary file left');
    await fs.chmod(file, 0o644);
    await readKeyFile(file);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    assert.equal(await readKeyFile(path.join(dir, 'none')), undefined);
    await fs.writeFile(file, 'not a key\n');
    await assert.rejects(readKeyFile(file), /does not hold a secrets key.*32 random bytes/);
  });

  it('a key file is the same text SECRETS_KEY takes', async () => {
    const key = generateSecretKey();
    const { loadConfig } = await import('../../kernel/config.js');
    assert.equal(secretKey(keysOf(loadConfig({ SECRETS_KEY: formatSecretKey(key) })).secretsKey!).id, key.id);
  });

  it('SECRETS_KEY seals and previous keys only open (key files are ignored then); without it the file is made once, unless forbidden', async (t) => {
    const dir = await makeTempDir();
    t.after(() => fs.rm(dir, { recursive: true, force: true }));
    assert.equal(await loadKeyring({ dataDir: dir, previousSecretsKeys: [] }, { create: false }), undefined);
    assert.deepEqual(await fs.readdir(dir), [], 'nothing made when creating is not allowed');
    const made = await loadKeyring({ dataDir: dir, previousSecretsKeys: [] }, { create: true });
    assert.equal(made?.createdFile, path.join(dir, 'secrets.key'));
    const again = await loadKeyring({ dataDir: dir, previousSecretsKeys: [] }, { create: true });
    assert.equal(again?.createdFile, undefined);
    assert.equal(again?.keyring.current.key.id, made?.keyring.current.key.id);
    const env = generateSecretKey();
    const previous = generateSecretKey();
    const withEnv = await loadKeyring({ dataDir: dir, secretsKey: env.bytes, previousSecretsKeys: [previous.bytes] }, { create: true });
    assert.equal(withEnv?.keyring.current.key.id, env.id);
    assert.equal(withEnv?.keyring.current.source, 'SECRETS_KEY');
    assert.ok(withEnv?.keyring.has(previous.id));
    assert.equal(withEnv?.keyring.has(made!.keyring.current.key.id), false, 'a forgotten key file does not let a wrong SECRETS_KEY pass');
  });
});
