import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProxyEntry, StoredProxySettings } from '../../plugins/settings/decorators.js';
import { createProxyRotation, rotationPool } from '../../plugins/settings/proxy-rotation.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const P1: ProxyEntry = { id: 'px_1', server: 'http://1.1.1.1:8080', username: 'u1', password: 'pw1', label: 'one' };
const P2: ProxyEntry = { id: 'px_2', server: 'socks5://9.9.9.9:1080' };
const P3: ProxyEntry = { id: 'px_3', server: 'https://8.8.8.8', password: 'pw3' };
const choice = (p: ProxyEntry) => ({ server: p.server, ...(p.username ? { username: p.username } : {}), ...(p.password ? { password: p.password } : {}) });

const settingsOf = (over: Partial<StoredProxySettings> = {}): StoredProxySettings =>
  ({ proxies: [P1, P2, P3], defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin', ...over });
const rotationOver = (settings: StoredProxySettings, random?: () => number) => createProxyRotation(async () => settings, random);
const picks = async (rotation: ReturnType<typeof createProxyRotation>, n: number) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await rotation.pick());
  return out;
};

describe('proxy rotation service (unit)', () => {
  it('round-robins over the user proxies in stored order, host excluded by default', async () => {
    assert.deepEqual(await picks(rotationOver(settingsOf()), 4), [choice(P1), choice(P2), choice(P3), choice(P1)]);
  });

  it('puts the host first in the pool when it is the default and includeDefaultInRotation is on', async () => {
    const rotation = rotationOver(settingsOf({ includeDefaultInRotation: true }));
    assert.deepEqual(await picks(rotation, 5), [null, choice(P1), choice(P2), choice(P3), null]);
  });

  it('leaves a user-proxy default out of the pool unless includeDefaultInRotation', async () => {
    assert.deepEqual(rotationPool(settingsOf({ defaultProxyId: 'px_2' })).map((p) => p?.id), ['px_1', 'px_3']);
    assert.deepEqual(rotationPool(settingsOf({ defaultProxyId: 'px_2', includeDefaultInRotation: true })).map((p) => p?.id), ['px_1', 'px_2', 'px_3']);
    assert.deepEqual(await picks(rotationOver(settingsOf({ defaultProxyId: 'px_2' })), 3), [choice(P1), choice(P3), choice(P1)]);
  });

  it('falls back to the default when the pool is empty', async () => {
    assert.equal(await rotationOver(settingsOf({ proxies: [] })).pick(), null);
    assert.deepEqual(await rotationOver(settingsOf({ proxies: [P1], defaultProxyId: 'px_1' })).pick(), choice(P1));
  });

  it('picks with the random source in random mode', async () => {
    const values = [0, 0.5, 0.99, 0.34];
    const rotation = rotationOver(settingsOf({ rotationMode: 'random' }), () => values.shift()!);
    assert.deepEqual(await picks(rotation, 4), [choice(P1), choice(P2), choice(P3), choice(P2)]);
  });

  it('answers the default, a proxy by id, host as null, and PROXY_NOT_FOUND for an unknown id', async () => {
    const rotation = rotationOver(settingsOf({ defaultProxyId: 'px_3' }));
    assert.deepEqual(await rotation.defaultProxy(), choice(P3));
    assert.deepEqual(await rotation.forId('px_1'), choice(P1));
    assert.equal(await rotation.forId('host'), null);
    await assert.rejects(rotation.forId('px_gone'), (error: Error & { code?: string; statusCode?: number }) =>
      error.code === 'PROXY_NOT_FOUND' && error.statusCode === 404);
    assert.equal(await rotationOver(settingsOf({ defaultProxyId: 'px_deleted' })).defaultProxy(), null, 'a stale default is the host');
  });

  it('chooses for a task: proxyId first, then rotation when rotateProxies, else the default', async () => {
    const rotation = rotationOver(settingsOf({ defaultProxyId: 'px_3' }));
    assert.deepEqual(await rotation.forTask({ proxyId: 'px_2', rotateProxies: true }), choice(P2));
    assert.deepEqual(await rotation.forTask({}), choice(P3));
    assert.deepEqual(await rotation.forTask({ rotateProxies: true }), choice(P1));
    assert.deepEqual(await rotation.forTask({ rotateProxies: true }), choice(P2));
  });
});

describe('proxy rotation through the running service (app.proxyRotation)', () => {
  let svc: TestService;
  let apiKey: string;
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await svc.request(method, `/api/settings${url}`, { apiKey, body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const servers = ['http://1.1.1.1:8080', 'socks5://9.9.9.9:1080', 'https://8.8.8.8'];
  const pickServers = async (n: number) => {
    const out: (string | null)[] = [];
    for (let i = 0; i < n; i++) out.push((await svc.service.app.proxyRotation.pick())?.server ?? null);
    return out;
  };
  let ids: string[];

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    await ok('POST', '/proxies/import', { proxies: servers.map((server) => ({ server, username: 'u', password: `pw-${server}` })) });
    ids = (await ok('GET', '/proxies')).proxies.slice(1).map((p: { id: string }) => p.id);
  });
  after(async () => { await svc.close(); });

  it('round-robins in stored order, starting wherever the in-memory position is', async () => {
    const got = await pickServers(6);
    const start = servers.indexOf(got[0]!);
    assert.ok(start >= 0);
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5].map((k) => servers[(start + k) % 3]));
  });

  it('hands out the stored password, never the mask', async () => {
    const picked = await svc.service.app.proxyRotation.pick();
    assert.ok(picked);
    assert.equal(picked.password, `pw-${picked.server}`);
  });

  it('adds the host (null) to the pool with includeDefaultInRotation and drops a user-proxy default without it', async () => {
    await ok('POST', '/proxies/rotation', { includeDefaultInRotation: true });
    assert.deepEqual(new Set(await pickServers(8)), new Set([null, ...servers]));
    await ok('POST', '/proxies/rotation', { defaultProxyId: ids[0], includeDefaultInRotation: false });
    assert.deepEqual(new Set(await pickServers(6)), new Set(servers.slice(1)));
    assert.equal((await svc.service.app.proxyRotation.defaultProxy())?.server, servers[0]);
  });

  it('stays within the pool in random mode', async () => {
    await ok('POST', '/proxies/rotation', { defaultProxyId: null, includeDefaultInRotation: false, rotationMode: 'random' });
    const got = await pickServers(60);
    assert.ok(got.every((server) => server !== null && servers.includes(server)), String(got));
    assert.equal(new Set(got).size, 3, 'sixty random picks reach all three proxies');
  });

  it('follows deletions: a deleted proxy is never picked and its id is unknown', async () => {
    await ok('DELETE', `/proxies/${ids[1]}`);
    const got = await pickServers(20);
    assert.ok(!got.includes(servers[1]!));
    await assert.rejects(svc.service.app.proxyRotation.forId(ids[1]!), { code: 'PROXY_NOT_FOUND' });
  });
});
