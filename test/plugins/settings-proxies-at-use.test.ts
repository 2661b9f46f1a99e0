// A proxy is checked against the outbound rule when a run takes it, not only when it is saved: one saved while
// ALLOW_PRIVATE_NETWORKS=true is refused after a restart with the rule back on (same DATA_DIR), as a task's
// proxyId, as the default and in the rotation (skipped with a log line; an error when none is left).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProxyEntry, StoredProxySettings } from '../../plugins/settings/decorators.js';
import { Errors } from '../../kernel/errors.js';
import { createOutboundGuard } from '../../kernel/outbound/index.js';
import { createProxyRotation } from '../../plugins/settings/proxy-rotation.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startCountingProxy, type CountingProxy } from '../support/pages-server.js';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
/** A public address: the guard passes it without a name lookup (the run fails on the proxy before any connection). */
const PUBLIC_URL = 'http://93.184.215.14/';

describe('proxy rotation with the outbound rule (unit)', () => {
  const LOCAL: ProxyEntry = { id: 'px_local', server: 'http://127.0.0.1:3128' };
  const PRIVATE: ProxyEntry = { id: 'px_lan', server: 'socks5://10.0.0.7:1080' };
  const PUBLIC: ProxyEntry = { id: 'px_pub', server: 'http://1.1.1.1:8080' };
  const guard = createOutboundGuard({ allowPrivateNetworks: false });
  const over = (settings: Partial<StoredProxySettings>) => createProxyRotation(async () => ({
    proxies: [LOCAL, PRIVATE, PUBLIC], defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin', ...settings,
  }), Math.random, guard);

  it('skips refused members for the next one, saying which and why', async () => {
    const rotation = over({});
    const lines: string[] = [];
    const picked = [];
    for (let i = 0; i < 3; i++) picked.push((await rotation.pick({ log: (line) => lines.push(line) }))?.server);
    assert.deepEqual(picked, [PUBLIC.server, PUBLIC.server, PUBLIC.server]);
    assert.match(lines[0]!, /^proxy http:\/\/127\.0\.0\.1:3128 \(px_local\) is refused by the outbound rule: host 127\.0\.0\.1 is a loopback address; set ALLOW_PRIVATE_NETWORKS=true to allow it; trying the next proxy of the rotation$/);
    assert.match(lines[1]!, /^proxy socks5:\/\/10\.0\.0\.7:1080 \(px_lan\) is refused .* private address/);
  });

  it('refuses with INVALID_URL when every member is refused, and for a refused proxyId or default', async () => {
    const check = (promise: Promise<unknown>, details: RegExp) => assert.rejects(promise, (error: unknown) =>
      Errors.INVALID_URL.is(error) && details.test(error.message));
    await check(over({ proxies: [LOCAL, PRIVATE] }).pick(), /^every proxy of the rotation is refused by the outbound rule \(2 tried\)$/);
    await check(over({}).forId('px_lan'), /^proxy socks5:\/\/10\.0\.0\.7:1080 \(px_lan\) is refused/);
    await check(over({ defaultProxyId: 'px_local' }).defaultProxy(), /^proxy http:\/\/127\.0\.0\.1:3128 \(px_local\) is refused/);
    assert.deepEqual(await over({}).forId('px_pub'), { server: PUBLIC.server });
    assert.equal(await over({ includeDefaultInRotation: true, proxies: [LOCAL] }).pick(), null, 'the host is never refused');
  });
});

describe('a proxy saved while private networks were allowed, after a restart with the rule on', { skip: chromium.skip }, () => {
  let dataDir: string;
  let proxy: CountingProxy;
  let svc: TestService | undefined;
  let apiKey: string;
  let proxyId: string;
  const api = (method: string, url: string, body?: unknown) => svc!.request(method, url, { apiKey, body });
  const runTask = async (task: Record<string, unknown>) => {
    const created = await api('POST', '/api/tasks', { name: 'proxied', mode: 'agent', actions: [], timeoutMs: 20_000, ...task });
    assert.equal(created.status, 200, created.text);
    const res = await api('POST', `/api/tasks/${created.body.id}/api`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  before(async () => {
    dataDir = await makeTempDir();
    proxy = await startCountingProxy();
  });
  after(async () => {
    await svc?.close();
    await proxy?.close();
  });

  it('is used while the rule allows it', async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    ({ apiKey } = await setupAdmin(svc));
    const saved = await api('POST', '/api/settings/proxies', { server: proxy.server, label: 'local' });
    assert.equal(saved.status, 200, saved.text);
    proxyId = saved.body.proxies.find((p: { server: string }) => p.server === proxy.server).id;
    const answer = await runTask({ url: 'http://example.test/', proxyId });
    assert.equal(answer.status, 'success', JSON.stringify(answer.result));
    assert.equal(answer.result.title, 'Proxied example.test');
    await svc.close();
    svc = undefined;
  });

  it('fails the run, naming the proxy and the rule, as a task\'s proxyId, as the default and as the whole rotation', async () => {
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'false' }, dataDir);
    const login = await svc.request('POST', '/api/auth/login', { body: { email: 'ada@example.com', password: 'correct horse battery' } });
    assert.equal(login.status, 200, login.text);
    const key = await svc.request('POST', '/api/settings/api-key', { cookie: login.headers.getSetCookie()[0]!.split(';')[0] });
    apiKey = key.body.apiKey;
    const served = proxy.hosts.length;
    const refusal = new RegExp(`^Choosing the proxy failed: proxy ${proxy.server.replace(/[.:/]/g, '\\$&')} \\(${proxyId}\\) is refused by ` +
      'the outbound rule: host 127\\.0\\.0\\.1 is a loopback address; set ALLOW_PRIVATE_NETWORKS=true to allow it$');

    const byId = await runTask({ url: PUBLIC_URL, proxyId });
    assert.equal(byId.status, 'error');
    assert.match(byId.result.error.message, refusal);

    assert.equal((await api('POST', '/api/settings/proxies/rotation', { defaultProxyId: proxyId })).status, 200);
    const byDefault = await runTask({ url: PUBLIC_URL });
    assert.equal(byDefault.status, 'error');
    assert.match(byDefault.result.error.message, refusal);

    assert.equal((await api('POST', '/api/settings/proxies/rotation', { defaultProxyId: null, includeDefaultInRotation: false })).status, 200);
    const rotated = await runTask({ url: PUBLIC_URL, rotateProxies: true });
    assert.equal(rotated.status, 'error');
    assert.equal(rotated.result.error.message, 'Choosing the proxy failed: every proxy of the rotation is refused by the outbound rule (1 tried)');
    const record = await api('GET', `/api/executions/${rotated.executionId}`);
    assert.ok(record.body.logs.some((line: { level: string; message: string }) => line.level === 'warn' && /\(.+\) is refused by the outbound rule/.test(line.message)),
      'the skipped proxy is in the run log');

    assert.equal(proxy.hosts.length, served, 'the refused proxy was never asked');
  });
});
