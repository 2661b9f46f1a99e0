import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const HOST = { id: 'host', server: 'host_ip', label: 'Host IP (no proxy)' };
const MASK = '********';

let svc: TestService;
let apiKey: string;
const api = (method: string, url: string, options: RequestOptions = {}) =>
  svc.request(method, `/api/settings${url}`, { apiKey, ...options });
const ok = async (method: string, url: string, body?: unknown) => {
  const res = await api(method, url, body === undefined ? {} : { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const userProxies = (settings: { proxies: any[] }): any[] => settings.proxies.slice(1);
const stored = (id: string) => svc.service.app.proxyRotation.forId(id);

/** Deletes every user proxy and restores the rotation defaults. */
async function reset(): Promise<void> {
  const ids = userProxies(await ok('GET', '/proxies')).map((p) => p.id);
  if (ids.length > 0) await ok('DELETE', '/proxies', { ids });
  await ok('POST', '/proxies/rotation', { defaultProxyId: null, includeDefaultInRotation: false, rotationMode: 'round-robin' });
}

before(async () => {
  svc = await startService();
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });
beforeEach(reset);

describe('settings: proxies, reading and adding', () => {
  it('answers the built-in host entry and the defaults when nothing is stored', async () => {
    assert.deepEqual(await ok('GET', '/proxies'), {
      proxies: [HOST], defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin',
    });
  });

  it('adds a proxy with a px_ id, answers the whole settings object and masks the password', async () => {
    const body = { server: 'http://1.1.1.1:8080', username: 'ann', password: 's3cret', label: 'One', isRotatingPool: true, estimatedPoolSize: 250 };
    const settings = await ok('POST', '/proxies', body);
    assert.deepEqual(settings.proxies[0], HOST);
    assert.equal(settings.proxies.length, 2);
    const [proxy] = userProxies(settings);
    assert.match(proxy.id, /^px_[A-Za-z0-9_-]{8,}$/);
    assert.deepEqual(proxy, { ...body, id: proxy.id, password: MASK });
    assert.deepEqual([settings.defaultProxyId, settings.includeDefaultInRotation, settings.rotationMode], ['host', false, 'round-robin']);
    assert.deepEqual(await ok('GET', '/proxies'), settings);
    assert.deepEqual(await stored(proxy.id), { server: 'http://1.1.1.1:8080', username: 'ann', password: 's3cret' });
  });

  it('accepts https and socks5, writes the server as scheme://host:port and moves credentials out of it', async () => {
    await ok('POST', '/proxies', { server: 'https://8.8.8.8:443/' });
    await ok('POST', '/proxies', { server: 'socks5://bob:p%40ss@9.9.9.9:1080' });
    const settings = await ok('POST', '/proxies', { server: '1.0.0.1:3128' });
    const proxies = userProxies(settings);
    assert.deepEqual(proxies.map((p: { server: string }) => p.server), ['https://8.8.8.8', 'socks5://9.9.9.9:1080', 'http://1.0.0.1:3128']);
    assert.equal(proxies[1].username, 'bob');
    assert.equal(proxies[1].password, MASK);
    assert.equal(JSON.stringify(settings).includes('p@ss'), false, 'the password never appears in an answer');
    assert.deepEqual(await stored(proxies[1].id), { server: 'socks5://9.9.9.9:1080', username: 'bob', password: 'p@ss' });
  });

  it('gives two proxies different ids', async () => {
    await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080' });
    const settings = await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080' });
    const [a, b] = userProxies(settings);
    assert.notEqual(a.id, b.id);
  });

  it('requires server and refuses fields of the wrong type with 400 VALIDATION_ERROR', async () => {
    for (const body of [{}, { label: 'no server' }, { server: 8080 }, { server: 'http://1.1.1.1:80', estimatedPoolSize: 'many' }, { server: 'http://1.1.1.1:80', extra: 1 }]) {
      const res = await api('POST', '/proxies', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(res.body.details, /body/);
    }
    assert.deepEqual(userProxies(await ok('GET', '/proxies')), []);
  });

  it('refuses other schemes, paths and private addresses with 400 INVALID_URL and stores nothing', async () => {
    const refused = [
      'http://127.0.0.1:8080', 'socks5://10.0.0.1:1080', 'http://[::1]:3128', 'http://localhost:3128',
      'https://192.168.1.5:443', 'socks5://0x7f.1:1080', 'ftp://1.1.1.1:21', 'socks4://1.1.1.1:1080', 'http://1.1.1.1:8080/path',
    ];
    for (const server of refused) {
      const res = await api('POST', '/proxies', { body: { server } });
      assert.equal(res.status, 400, server);
      assert.equal(res.body.error, 'INVALID_URL', server);
      assert.equal(typeof res.body.details, 'string');
    }
    const res = await api('POST', '/proxies', { body: { server: 'http://127.0.0.1:8080' } });
    assert.match(res.body.details, /loopback.*ALLOW_PRIVATE_NETWORKS/);
    assert.deepEqual(userProxies(await ok('GET', '/proxies')), []);
  });
});

describe('settings: proxies, changing', () => {
  it('replaces a proxy with PUT; the mask keeps the stored password, a new one replaces it', async () => {
    const [proxy] = userProxies(await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080', username: 'ann', password: 'old', label: 'L' }));
    const kept = await ok('PUT', `/proxies/${proxy.id}`, { ...proxy, label: 'Renamed' });
    assert.deepEqual(userProxies(kept), [{ ...proxy, label: 'Renamed' }]);
    assert.equal((await stored(proxy.id))?.password, 'old');

    await ok('PUT', `/proxies/${proxy.id}`, { server: 'http://1.1.1.1:8080', username: 'ann', password: 'new' });
    assert.equal((await stored(proxy.id))?.password, 'new');

    const replaced = await ok('PUT', `/proxies/${proxy.id}`, { server: 'socks5://9.9.9.9:1080' });
    assert.deepEqual(userProxies(replaced), [{ id: proxy.id, server: 'socks5://9.9.9.9:1080' }], 'PUT replaces every field');
    assert.deepEqual(await stored(proxy.id), { server: 'socks5://9.9.9.9:1080' });
  });

  it('re-checks the server on PUT and leaves the proxy unchanged when it is refused', async () => {
    const [proxy] = userProxies(await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080' }));
    const res = await api('PUT', `/proxies/${proxy.id}`, { body: { server: 'http://169.254.169.254:80' } });
    assert.deepEqual([res.status, res.body.error], [400, 'INVALID_URL']);
    const missing = await api('PUT', `/proxies/${proxy.id}`, { body: { label: 'x' } });
    assert.deepEqual([missing.status, missing.body.error], [400, 'VALIDATION_ERROR']);
    assert.deepEqual(userProxies(await ok('GET', '/proxies')), [proxy]);
  });

  it('answers 404 PROXY_NOT_FOUND for an unknown id and 400 for the host entry', async () => {
    for (const [method, url, body] of [['PUT', '/proxies/px_nope', { server: 'http://1.1.1.1:80' }], ['DELETE', '/proxies/px_nope', undefined]] as const) {
      const res = await api(method, url, body ? { body } : {});
      assert.deepEqual([res.status, res.body.error], [404, 'PROXY_NOT_FOUND']);
      assert.match(res.body.details, /px_nope/);
    }
    for (const [method, url, body] of [['PUT', '/proxies/host', { server: 'http://1.1.1.1:80' }], ['DELETE', '/proxies/host', undefined], ['DELETE', '/proxies', { ids: ['host'] }]] as const) {
      const res = await api(method, url, body ? { body } : {});
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], `${method} ${url}`);
    }
  });

  it('deletes one proxy, and resets the default to host when the default is deleted', async () => {
    await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080' });
    const [a, b] = userProxies(await ok('POST', '/proxies', { server: 'http://8.8.8.8:8080' }));
    await ok('POST', '/proxies/rotation', { defaultProxyId: b.id });
    const afterA = await ok('DELETE', `/proxies/${a.id}`);
    assert.deepEqual([userProxies(afterA), afterA.defaultProxyId], [[b], b.id]);
    const afterB = await ok('DELETE', `/proxies/${b.id}`);
    assert.deepEqual(afterB, { proxies: [HOST], defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin' });
  });

  it('deletes several proxies at once, and none when one id is unknown', async () => {
    for (const server of ['http://1.1.1.1:1', 'http://1.1.1.1:2', 'http://1.1.1.1:3']) await ok('POST', '/proxies', { server });
    const [a, b, c] = userProxies(await ok('GET', '/proxies'));
    const refused = await api('DELETE', '/proxies', { body: { ids: [a.id, 'px_unknown'] } });
    assert.deepEqual([refused.status, refused.body.error], [404, 'PROXY_NOT_FOUND']);
    assert.equal(userProxies(await ok('GET', '/proxies')).length, 3);
    const settings = await ok('DELETE', '/proxies', { ids: [a.id, c.id] });
    assert.deepEqual(userProxies(settings), [b]);
    const empty = await api('DELETE', '/proxies', { body: { ids: [] } });
    assert.deepEqual([empty.status, empty.body.error], [400, 'VALIDATION_ERROR']);
  });
});

describe('settings: proxies, import', () => {
  it('adds new servers and updates entries whose server is stored, keeping id and masked password', async () => {
    const [kept] = userProxies(await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080', username: 'ann', password: 'pw', label: 'Old' }));
    const settings = await ok('POST', '/proxies/import', {
      proxies: [
        { server: 'http://1.1.1.1:8080', password: MASK, label: 'Updated' },
        { server: 'socks5://9.9.9.9:1080', username: 'u', password: 'p' },
        { server: '8.8.8.8:3128' },
      ],
    });
    const proxies = userProxies(settings);
    assert.equal(proxies.length, 3);
    assert.deepEqual(proxies[0], { ...kept, label: 'Updated' });
    assert.deepEqual(proxies.slice(1).map((p: { server: string }) => p.server), ['socks5://9.9.9.9:1080', 'http://8.8.8.8:3128']);
    assert.equal(proxies[1].password, MASK);
    assert.equal((await stored(kept.id))?.password, 'pw');
    assert.equal((await stored(proxies[1].id))?.password, 'p');
  });

  it('can import its own answer again (the host entry is skipped, nothing is duplicated)', async () => {
    await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080', password: 'pw' });
    const before = await ok('GET', '/proxies');
    const again = await ok('POST', '/proxies/import', { proxies: before.proxies });
    assert.deepEqual(again, before);
    assert.equal((await stored(userProxies(before)[0].id))?.password, 'pw');
  });

  it('changes nothing when any entry fails the SSRF check or validation', async () => {
    const [existing] = userProxies(await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080', label: 'Keep' }));
    const ssrf = await api('POST', '/proxies/import', {
      body: { proxies: [{ server: 'http://1.1.1.1:8080', label: 'Changed' }, { server: 'http://8.8.8.8:80' }, { server: 'socks5://10.0.0.1:1080' }] },
    });
    assert.deepEqual([ssrf.status, ssrf.body.error], [400, 'INVALID_URL']);
    assert.match(ssrf.body.details, /proxies\.2/);
    const invalid = await api('POST', '/proxies/import', { body: { proxies: [{ server: 'http://8.8.8.8:80' }, { label: 'no server' }] } });
    assert.deepEqual([invalid.status, invalid.body.error], [400, 'VALIDATION_ERROR']);
    const notArray = await api('POST', '/proxies/import', { body: { proxies: 'http://8.8.8.8:80' } });
    assert.deepEqual([notArray.status, notArray.body.error], [400, 'VALIDATION_ERROR']);
    assert.deepEqual(userProxies(await ok('GET', '/proxies')), [existing]);
  });
});

describe('settings: proxies, rotation settings', () => {
  it('sets the default, the pool membership and the mode; null means host', async () => {
    const [proxy] = userProxies(await ok('POST', '/proxies', { server: 'http://1.1.1.1:8080' }));
    const set = await ok('POST', '/proxies/rotation', { defaultProxyId: proxy.id, includeDefaultInRotation: true, rotationMode: 'random' });
    assert.deepEqual([set.defaultProxyId, set.includeDefaultInRotation, set.rotationMode], [proxy.id, true, 'random']);
    assert.equal(set.proxies.length, 2);
    const partial = await ok('POST', '/proxies/rotation', { rotationMode: 'round-robin' });
    assert.deepEqual([partial.defaultProxyId, partial.includeDefaultInRotation, partial.rotationMode], [proxy.id, true, 'round-robin']);
    assert.equal((await ok('POST', '/proxies/rotation', { defaultProxyId: null })).defaultProxyId, 'host');
    await ok('POST', '/proxies/rotation', { defaultProxyId: proxy.id });
    assert.equal((await ok('POST', '/proxies/rotation', { defaultProxyId: 'host' })).defaultProxyId, 'host');
  });

  it('answers 404 for an unknown default and 400 for a bad mode or flag, changing nothing', async () => {
    const unknown = await api('POST', '/proxies/rotation', { body: { defaultProxyId: 'px_missing', rotationMode: 'random' } });
    assert.deepEqual([unknown.status, unknown.body.error], [404, 'PROXY_NOT_FOUND']);
    for (const body of [{ rotationMode: 'sequential' }, { includeDefaultInRotation: 'yes' }, { defaultProxyId: 5 }]) {
      const res = await api('POST', '/proxies/rotation', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
    }
    const settings = await ok('GET', '/proxies');
    assert.deepEqual([settings.defaultProxyId, settings.rotationMode, settings.includeDefaultInRotation], ['host', 'round-robin', false]);
  });
});

describe('settings: proxies with ALLOW_PRIVATE_NETWORKS=true', () => {
  it('accepts private and loopback proxy addresses', async () => {
    const open = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const { apiKey: key } = await setupAdmin(open);
      for (const server of ['http://127.0.0.1:8080', 'socks5://10.0.0.1:1080', 'http://[::1]:3128']) {
        const res = await open.request('POST', '/api/settings/proxies', { apiKey: key, body: { server } });
        assert.equal(res.status, 200, `${server}: ${res.text}`);
      }
      const imported = await open.request('POST', '/api/settings/proxies/import', { apiKey: key, body: { proxies: [{ server: 'http://192.168.1.5:8080' }] } });
      assert.equal(imported.status, 200, imported.text);
      assert.deepEqual(imported.body.proxies.map((p: { server: string }) => p.server),
        ['host_ip', 'http://127.0.0.1:8080', 'socks5://10.0.0.1:1080', 'http://[::1]:3128', 'http://192.168.1.5:8080']);
      const scheme = await open.request('POST', '/api/settings/proxies', { apiKey: key, body: { server: 'ftp://127.0.0.1:21' } });
      assert.deepEqual([scheme.status, scheme.body.error], [400, 'INVALID_URL'], 'the scheme is still checked');
    } finally {
      await open.close();
    }
  });
});

describe('settings: proxies need authentication', () => {
  it('answers 401 to anonymous callers on every proxy route', async () => {
    const routes = svc.service.app.routeTable.filter((r) => r.url.startsWith('/api/settings/proxies') && r.method !== 'HEAD');
    assert.equal(routes.length, 8); // with GET /blocks (the bot walls by site and proxy)
    for (const route of routes) {
      const res = await svc.request(route.method, route.url.replace(':id', 'px_x'), { body: route.method === 'GET' ? undefined : {} });
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${route.method} ${route.url}`);
      assert.equal(route.auth, 'authenticated');
    }
  });
});
