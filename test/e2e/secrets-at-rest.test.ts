// Secrets at rest on the JSON store: planted through the real API, then looked for in every raw file of DATA_DIR;
// the key file, file modes, a wrong or missing key, and a store an older version left in plain text.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../kernel/config.js';
import { createService } from '../../app/service.js';
import { generateSecretKey, formatSecretKey } from '../../layers/sealed-storage/secret-key.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { startBaserowStandIn } from '../stand-ins/baserow.js';
import { makeCredential } from '../../testing/storage/harness.js';
import { PLANTED, assertSecretsServe, foundIn, plantSecrets, readTree, storedSessionSecret } from '../support/planted-secrets.js';
import { ADMIN, makeTempDir, request, startService } from '../support/service.js';

const MAIN = path.resolve('app/main.ts');
const modeOf = async (file: string) => ((await fs.stat(file)).mode & 0o777).toString(8);

/** `taskloom` started as a process that must exit at once; its exit code and stderr. */
function startToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => { clearTimeout(timer); resolve({ code, stderr }); }));
}

describe('secrets at rest (JSON store)', { timeout: 180_000 }, () => {
  it('no planted secret is in any raw file; the key file and store files are 0600; a wrong or missing key stops the start', async (t) => {
    const baserow = await startBaserowStandIn({ token: 'baserow-token-PLANTED-6e7a' });
    const dataDir = await makeTempDir();
    t.after(async () => { await baserow.close(); await fs.rm(dataDir, { recursive: true, force: true }); });
    const env = { ALLOW_PRIVATE_NETWORKS: 'true' };
    let svc = await startService(env, dataDir);
    const planted = await plantSecrets(svc.baseUrl, baserow);
    await assertSecretsServe(svc.baseUrl, planted, baserow);
    await svc.close();

    const tree = await readTree(dataDir);
    assert.ok(tree.includes(baserow.url), 'the raw files were read');
    assert.deepEqual(foundIn(tree, planted.secrets), []);
    const raw = await openJsonStorage({ dir: path.join(dataDir, 'store') });
    const sessionSecret = await storedSessionSecret(raw, loadConfig({ DATA_DIR: dataDir })).finally(() => raw.close());
    assert.deepEqual(foundIn(tree, [sessionSecret]), []);

    assert.equal(await modeOf(path.join(dataDir, 'secrets.key')), '600');
    assert.equal(await modeOf(path.join(dataDir, 'store')), '700');
    for (const file of await fs.readdir(path.join(dataDir, 'store'))) assert.equal(await modeOf(path.join(dataDir, 'store', file)), '600', file);

    // Another key: the start stops with one line naming both key ids, before anything is served.
    const other = generateSecretKey();
    const wrong = await startToExit({ DATA_DIR: dataDir, SECRETS_KEY: formatSecretKey(other).trim() });
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, new RegExp(`^taskloom failed to start: the secrets of this store are sealed with key [0-9a-f]{16}, but this instance has ${other.id} \\(SECRETS_KEY\\).*SECRETS_KEY`));
    assert.equal(wrong.stderr.trim().split('\n').length, 1, wrong.stderr);

    // No key at all: the same, and no new key file is made for a store that has one already.
    await fs.rename(path.join(dataDir, 'secrets.key'), path.join(dataDir, 'kept.key'));
    await assert.rejects(startService(env, dataDir), /sealed with key [0-9a-f]{16}, but SECRETS_KEY is unset and DATA_DIR\/secrets.key is missing: restore/);
    await assert.rejects(fs.stat(path.join(dataDir, 'secrets.key')), { code: 'ENOENT' });

    // The key file's text is what SECRETS_KEY takes: the store moves to it.
    const keyText = (await fs.readFile(path.join(dataDir, 'kept.key'), 'utf8')).trim();
    svc = await startService({ ...env, SECRETS_KEY: keyText }, dataDir);
    try {
      await assertSecretsServe(svc.baseUrl, planted, baserow);
    } finally {
      await svc.close();
    }
  });

  it('a store an older version left in plain text still serves, and is sealed at start with no plain copy left', async (t) => {
    const baserow = await startBaserowStandIn({ token: 'baserow-legacy-PLANTED-31f0' });
    const dataDir = await makeTempDir();
    t.after(async () => { await baserow.close(); await fs.rm(dataDir, { recursive: true, force: true }); });
    const legacy = { sessionSecret: 'ab'.repeat(32), aiKey: 'sk-legacy-PLANTED-5a6b', proxy: 'legacy-proxy-PLANTED-pass', cookie: 'sid-legacy-PLANTED-c00k' };
    const raw = await openJsonStorage({ dir: path.join(dataDir, 'store') });
    await raw.settings.set('sessionSecret', legacy.sessionSecret);
    await raw.settings.set('settings.aiProviderKeys', { providerA: [legacy.aiKey] });
    await raw.settings.set('settings.proxies', {
      proxies: [{ id: 'px_legacy', server: 'http://10.1.2.3:3128', username: 'u', password: legacy.proxy }],
      defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin',
    });
    await raw.settings.set('browser.cookies', [{ name: 'sid', value: legacy.cookie, domain: 'example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' }]);
    await raw.credentials.put(makeCredential({ id: 'cred_legacy', provider: 'tablestore', config: { baseUrl: baserow.url, token: baserow.token } }));
    await raw.close();
    const before = await readTree(dataDir);
    assert.equal(foundIn(before, [legacy.aiKey]).length > 0, true, 'the planted store holds the key in clear');

    const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    try {
      const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
      const apiKey = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie: setup.headers.getSetCookie()[0]!.split(';')[0] })).body.apiKey;
      const ai = await svc.request('GET', '/api/settings/provider-a-api-key', { apiKey });
      assert.deepEqual(ai.body.providerAApiKeys, [`****${legacy.aiKey.slice(-4)}`]);
      assert.equal((await svc.request('GET', '/api/settings/proxies', { apiKey })).body.proxies[1]?.password, '********');
      const databases = await svc.request('GET', '/api/credentials/cred_legacy/proxy/tablestore/databases', { apiKey });
      assert.equal(databases.status, 200, databases.text);
      const cookies = await svc.request('GET', '/api/data/cookies', { apiKey });
      assert.equal(cookies.status, 200, cookies.text);
      assert.ok(cookies.text.includes('example.com') && !cookies.text.includes(legacy.cookie), cookies.text);
    } finally {
      await svc.close();
    }
    assert.deepEqual(foundIn(await readTree(dataDir), [...Object.values(legacy), baserow.token, ...PLANTED.aiKeys]), []);
  });
});
