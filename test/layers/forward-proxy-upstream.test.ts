// A forward proxy chained to a task's proxy (HTTP with CONNECT, SOCKS5), with ALLOW_PRIVATE_NETWORKS=false: the
// destination is checked first, the upstream's own address at connect time, and its credentials are added
// here (never shown to the browser, never logged).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startForwardProxy, type ForwardProxy } from '../../layers/browser-pool/forward-proxy.js';
import { createOutboundGuard } from '../../kernel/outbound/guard.js';
import { captureLogger, connectThrough, getThrough, type ProxyAnswer } from '../support/proxy-client.js';
import { startHttpUpstream, startSocksUpstream, tableLookup, UPSTREAM_CREDENTIALS, type UpstreamStandIn } from '../support/proxy-servers.js';

const lookup = tableLookup({ 'allowed.test': '127.0.0.2', 'rebind.test': '127.0.0.1' });
const guard = createOutboundGuard({ allowPrivateNetworks: false, lookup, allowAddress: (ip) => ip === '127.0.0.2' });
/** The upstream's own network: it also knows a name this machine cannot resolve. */
const upstreamDns = (name: string) => (name === 'allowed.test' || name === 'only-upstream.test' ? '127.0.0.2' : name);

describe('forward proxy chained to an upstream proxy', () => {
  let site: http.Server;
  let port: number;
  let secretHits = 0;
  let secret: http.Server;
  let secretPort: number;
  let upstreams: UpstreamStandIn[] = [];
  const routes: ForwardProxy[] = [];
  const logs = captureLogger();
  const answers: ProxyAnswer[] = [];
  const kept = async (answer: Promise<ProxyAnswer>) => {
    const value = await answer;
    answers.push(value);
    return value;
  };
  const route = async (upstream: UpstreamStandIn, password = UPSTREAM_CREDENTIALS.password) => {
    const proxy = await startForwardProxy({ guard, logger: logs.logger, upstream: { server: upstream.server, username: UPSTREAM_CREDENTIALS.username, password } });
    routes.push(proxy);
    return proxy;
  };

  before(async () => {
    site = http.createServer((req, res) => res.end(`site ${req.headers.host} ${req.url}`));
    secret = http.createServer((_req, res) => {
      secretHits++;
      res.end('SECRET');
    });
    site.listen(0, '127.0.0.2');
    secret.listen(0, '127.0.0.1');
    await Promise.all([once(site, 'listening'), once(secret, 'listening')]);
    port = (site.address() as AddressInfo).port;
    secretPort = (secret.address() as AddressInfo).port;
    upstreams = await Promise.all([startHttpUpstream('127.0.0.2', upstreamDns), startSocksUpstream('127.0.0.2', upstreamDns)]);
  });
  after(async () => {
    await Promise.all(routes.map((r) => r.close()));
    await Promise.all(upstreams.map((u) => u.close()));
    for (const server of [site, secret]) {
      server?.closeAllConnections();
      server?.close();
    }
  });

  for (const kind of ['HTTP', 'SOCKS5'] as const) {
    describe(`${kind} upstream`, () => {
      const upstream = () => upstreams[kind === 'HTTP' ? 0 : 1]!;

      it('carries CONNECT and plain http through it, by name, with its credentials', async () => {
        const proxy = await route(upstream());
        upstream().seen.length = 0;
        const tunnel = await kept(connectThrough(proxy.url, `allowed.test:${port}`));
        assert.equal(tunnel.status, 200, tunnel.body);
        assert.match(tunnel.body, /^site /);
        const plain = await kept(getThrough(proxy.url, `http://allowed.test:${port}/p?q=1`));
        assert.equal(plain.status, 200, plain.body);
        assert.equal(plain.body, `site allowed.test:${port} /p?q=1`);
        const method = kind === 'HTTP' ? ['CONNECT', 'GET'] : ['SOCKS5', 'SOCKS5'];
        assert.deepEqual(upstream().seen, method.map((m) => ({ method: m, target: `allowed.test:${port}`, authorised: true })));
      });

      it('refuses private destinations before the upstream is asked', async () => {
        const proxy = await route(upstream());
        upstream().seen.length = 0;
        for (const target of [`127.0.0.1:${secretPort}`, `rebind.test:${secretPort}`, `localhost:${secretPort}`, `[::1]:${secretPort}`, `10.0.0.1:80`]) {
          assert.equal((await kept(connectThrough(proxy.url, target))).status, 403, `CONNECT ${target}`);
          assert.equal((await kept(getThrough(proxy.url, `http://${target}/`))).status, 403, `GET ${target}`);
        }
        assert.deepEqual(upstream().seen, []);
        assert.equal(secretHits, 0);
      });

      it('leaves a name this machine cannot resolve to the upstream', async () => {
        const proxy = await route(upstream());
        const res = await kept(getThrough(proxy.url, `http://only-upstream.test:${port}/`));
        assert.equal(res.status, 200, res.body);
        assert.match(res.body, /^site only-upstream\.test/);
      });

      it('answers 502 when the upstream refuses the credentials, without them in the answer', async () => {
        const proxy = await route(upstream(), 'wrong-PLANTED');
        const res = await kept(connectThrough(proxy.url, `allowed.test:${port}`));
        assert.equal(res.status, 502);
        const plain = await kept(getThrough(proxy.url, `http://allowed.test:${port}/`));
        assert.ok(plain.status === 502 || plain.status === 407, String(plain.status));
      });
    });
  }

  it('checks the upstream\'s own address at connect time: one on loopback is refused', async () => {
    const local = await startHttpUpstream('127.0.0.1', upstreamDns);
    try {
      const proxy = await route(local);
      const res = await kept(connectThrough(proxy.url, `allowed.test:${port}`));
      assert.equal(res.status, 403);
      assert.match(res.body, /127\.0\.0\.1 is a loopback address/);
      assert.deepEqual(local.seen, []);
    } finally {
      await local.close();
    }
  });

  it('never shows or logs the upstream\'s password', () => {
    assert.ok(logs.lines.length > 0, 'refusals were logged');
    const everything = logs.text() + JSON.stringify(answers);
    assert.doesNotMatch(everything, /PLANTED/);
    assert.doesNotMatch(everything, new RegExp(Buffer.from(`${UPSTREAM_CREDENTIALS.username}:`).toString('base64').slice(0, 12)));
  });
});
