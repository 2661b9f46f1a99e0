// Secrets planted through the real HTTP API, and the search for them (and their encodings) in raw store bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import type { KernelConfig } from '../../kernel/config.js';
import { loadKeyring, type KeyConfig } from '../../layers/sealed-storage/load-keyring.js';
import { keysOf } from '../../layers/sealed-storage/settings.js';
import { sealStorage } from '../../layers/sealed-storage/open-secret-storage.js';
import type { BaserowStandIn } from '../stand-ins/baserow.js';
import { ADMIN, request, sessionCookie } from './service.js';

export interface Planted {
  apiKey: string;
  credentialId: string;
  /** Every secret planted, in clear. */
  secrets: string[];
}

export const PLANTED = {
  aiKeys: ['sk-providerA-PLANTED-7a1c', 'sk-providerB-PLANTED-8b2d', 'sk-ant-providerC-PLANTED-9c3e'],
  proxyPassword: 'proxy-password-PLANTED-4d5f',
};

/** Admin, API key, an AI key per slot A to C, a proxy with a password and a tablestore credential (the stand-in's token). */
export async function plantSecrets(baseUrl: string, baserow: BaserowStandIn): Promise<Planted> {
  const setup = await request(baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
  assert.equal(setup.status, 200, setup.text);
  const cookie = sessionCookie(setup.headers);
  const apiKey = (await request(baseUrl, 'POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
  const call = async (method: string, url: string, body: unknown) => {
    const res = await request(baseUrl, method, url, { apiKey, body });
    assert.equal(res.status, 200, `${url}: ${res.text}`);
    return res;
  };
  for (const [i, slot] of ['a', 'b', 'c'].entries()) {
    await call('POST', `/api/settings/provider-${slot}-api-key`, { [`provider${slot.toUpperCase()}ApiKeys`]: [PLANTED.aiKeys[i]] });
  }
  await call('POST', '/api/settings/proxies', { server: 'http://10.1.2.3:3128', username: 'u', password: PLANTED.proxyPassword });
  const credential = await call('POST', '/api/credentials', { provider: 'tablestore', name: 'b', config: { baseUrl: baserow.url, token: baserow.token } });
  return { apiKey, credentialId: credential.body.id, secrets: [...PLANTED.aiKeys, PLANTED.proxyPassword, baserow.token, ADMIN.password] };
}

/** The planted secrets still serve: masked in answers, and the credential's token opens the Baserow stand-in. */
export async function assertSecretsServe(baseUrl: string, planted: Planted, baserow: BaserowStandIn): Promise<void> {
  const get = (url: string) => request(baseUrl, 'GET', url, { apiKey: planted.apiKey });
  for (const [i, slot] of ['a', 'b', 'c'].entries()) {
    const res = await get(`/api/settings/provider-${slot}-api-key`);
    assert.deepEqual(res.body[`provider${slot.toUpperCase()}ApiKeys`], [`****${PLANTED.aiKeys[i]!.slice(-4)}`], res.text);
  }
  const proxies = await get('/api/settings/proxies');
  assert.equal(proxies.body.proxies[1]?.password, '********', proxies.text);
  baserow.reset();
  const databases = await get(`/api/credentials/${planted.credentialId}/proxy/tablestore/databases`);
  assert.equal(databases.status, 200, databases.text);
  assert.deepEqual(databases.body.map((d: { name: string }) => d.name), ['Sales', 'Ops']);
  assert.ok(baserow.requests.some((r) => r.authorization === `Token ${baserow.token}`), 'the stored token, opened, reached Baserow');
}

/** A secret as it might show in raw bytes: itself, JSON-escaped, hex, and base64 / base64url at each alignment. */
export function encodings(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('hex')];
  for (let shift = 0; shift < 3; shift++) {
    const part = Buffer.from(secret.slice(shift));
    // Drop the last characters, which depend on what follows in a longer encoded text.
    for (const b64 of [part.toString('base64'), part.toString('base64url')]) forms.push(b64.replace(/=+$/, '').slice(0, -2));
  }
  return forms.filter((form) => form.length >= 8);
}

/** The planted secrets (in any encoding) that `raw` contains, as `secret (encoding)`. */
export function foundIn(raw: string, secrets: string[]): string[] {
  return secrets.flatMap((secret) => encodings(secret).filter((form) => raw.includes(form)).map((form) => `${secret.slice(0, 12)}… as ${form.slice(0, 16)}…`));
}

/** Every file under `dir` (but the key files), as text. */
export async function readTree(dir: string, skip = (name: string) => name.startsWith('secrets.key')): Promise<string> {
  const parts: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) parts.push(await readTree(full, skip));
    else if (!skip(entry.name)) parts.push(await fs.readFile(full, 'latin1'));
  }
  return parts.join('\n');
}

/** The session secret the service generated, read through the kernel's sealing with the key at hand. */
export async function storedSessionSecret(raw: StorageProvider, config: KeyConfig | KernelConfig): Promise<string> {
  const loaded = await loadKeyring('variables' in config ? keysOf(config) : config, { create: false });
  assert.ok(loaded, 'a key is at hand');
  const secret = await sealStorage(raw, loaded.keyring).settings.get<string>('sessionSecret');
  assert.match(String(secret), /^[0-9a-f]{64}$/);
  return secret!;
}
