// The forward proxy every launched browser goes through with ALLOW_PRIVATE_NETWORKS=false, spoken to as a
// browser would (absolute-form http, CONNECT, a ws upgrade), with a host table for DNS: 127.0.0.2 stands for a
// public host (the guard's allowAddress), 127.0.0.1 for the machine itself.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startForwardProxy, type ForwardProxy } from '../../layers/browser-pool/forward-proxy.js';
import { createOutboundGuard } from '../../kernel/outbound/guard.js';
import { HOSTILE_HOSTS } from '../support/hostile-urls.js';
import { captureLogger, connectThrough, getThrough } from '../support/proxy-client.js';
import { tableLookup } from '../support/proxy-servers.js';

let flips = 0;
const lookup = tableLookup({
  'allowed.test': '127.0.0.2',
  'rebind.test': '127.0.0.1',
  'mixed.test': ['127.0.0.2', '127.0.0.1'],
  // Public on the first answer, loopback on every later one: what a rebinding attacker's DNS does.
  'flip.test': () => (flips++ === 0 ? '127.0.0.2' : '127.0.0.1'),
});
const guard = createOutboundGuard({ allowPrivateNetworks: false, lookup, allowAddress: (ip) => ip === '127.0.0.2' });

describe('forward proxy (ALLOW_PRIVATE_NETWORKS=false)', () => {
  let allowed: http.Server;
  let secret: http.Server;
  let allowedPort: number;
  let secretPort: number;
  let secretHits = 0;
  let proxy: ForwardProxy;
  const logs = captureLogger();

  before(async () => {
    allowed = http.createServer((req, res) => res.end(`allowed ${req.url}`));
    secret = http.createServer((_req, res) => {
      secretHits++;
      res.end('SECRET');
    });
    secret.on('upgrade', (_req, socket) => {
      secretHits++;
      socket.destroy();
    });
    allowed.listen(0, '127.0.0.2');
    secret.listen(0, '127.0.0.1');
    await Promise.all([once(allowed, 'listening'), once(secret, 'listening')]);
    allowedPort = (allowed.address() as AddressInfo).port;
    secretPort = (secret.address() as AddressInfo).port;
    proxy = await startForwardProxy({ guard, logger: logs.logger });
  });
  after(async () => {
    await proxy?.close();
    allowed?.closeAllConnections();
    secret?.closeAllConnections();
    allowed?.close();
    secret?.close();
  });

  it('listens on loopback and passes plain http to an allowed host, by name', async () => {
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await getThrough(proxy.url, `http://allowed.test:${allowedPort}/page?x=1`);
    assert.equal(res.status, 200);
    assert.equal(res.body, 'allowed /page?x=1');
  });

  it('tunnels CONNECT to an allowed host', async () => {
    const res = await connectThrough(proxy.url, `allowed.test:${allowedPort}`);
    assert.equal(res.status, 200);
    assert.match(res.body, /allowed \//);
  });

  it('refuses a loopback destination with 403 and the reason, and logs it by host and port only', async () => {
    const res = await getThrough(proxy.url, `http://127.0.0.1:${secretPort}/admin?token=QUERY-SECRET-VALUE`);
    assert.equal(res.status, 403);
    assert.match(res.body, /outbound rule: host 127\.0\.0\.1 is a loopback address; set ALLOW_PRIVATE_NETWORKS=true/);
    assert.equal(secretHits, 0);
    const line = logs.lines.find((l) => l.destination === `127.0.0.1:${secretPort}`);
    assert.ok(line, 'a refusal is logged');
    assert.doesNotMatch(logs.text(), /QUERY-SECRET-VALUE|\/admin/);
  });

  it('refuses every private or local spelling, over CONNECT and absolute-form', async () => {
    for (const host of HOSTILE_HOSTS) {
      const tunnel = await connectThrough(proxy.url, `${host}:${secretPort}`);
      assert.ok(tunnel.status === 403 || tunnel.status === 400, `CONNECT ${host}: ${tunnel.status}`);
      const plain = await getThrough(proxy.url, `http://${host}:${secretPort}/`);
      assert.ok(plain.status === 403 || plain.status === 400, `GET ${host}: ${plain.status}`);
    }
    assert.equal(secretHits, 0);
  });

  it('refuses a name that resolves to a private address, or to a mix of public and private ones', async () => {
    assert.equal((await connectThrough(proxy.url, `rebind.test:${secretPort}`)).status, 403);
    assert.equal((await getThrough(proxy.url, `http://rebind.test:${secretPort}/`)).status, 403);
    assert.equal((await connectThrough(proxy.url, `mixed.test:${secretPort}`)).status, 403);
    assert.equal((await getThrough(proxy.url, `http://unknown.test:${secretPort}/`)).status, 403, 'not resolvable');
    assert.equal(secretHits, 0);
  });

  it('connects to the address it checked: a rebinding name gets one lookup per connection', async () => {
    const before = lookup.calls.filter((n) => n === 'flip.test').length;
    const first = await connectThrough(proxy.url, `flip.test:${allowedPort}`);
    assert.equal(first.status, 200, 'the first answer (public) is used');
    assert.equal(lookup.calls.filter((n) => n === 'flip.test').length, before + 1, 'resolved once for the connection');
    const second = await connectThrough(proxy.url, `flip.test:${secretPort}`);
    assert.equal(second.status, 403, 'the rebound answer is refused');
    assert.equal(secretHits, 0);
  });

  it('refuses an absolute-form WebSocket upgrade to loopback', async () => {
    const socket = net.connect(Number(new URL(proxy.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`GET http://127.0.0.1:${secretPort}/ws HTTP/1.1\r\nHost: 127.0.0.1:${secretPort}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    const [chunk] = await once(socket, 'data');
    socket.destroy();
    assert.match(String(chunk), /^HTTP\/1\.1 403/);
    assert.equal(secretHits, 0);
  });

  it('answers 400 to a request that is not a proxy request', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      http.get(`${proxy.url}/not-absolute`, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      }).on('error', reject);
    });
    assert.equal(res, 400);
  });

  it('ends open tunnels when closed', async () => {
    const extra = await startForwardProxy({ guard, logger: logs.logger });
    const socket = net.connect(Number(new URL(extra.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`CONNECT allowed.test:${allowedPort} HTTP/1.1\r\nHost: allowed.test:${allowedPort}\r\n\r\n`);
    await once(socket, 'data');
    const closed = once(socket, 'close');
    await extra.close();
    await closed;
    assert.equal(extra.connections(), 1);
  });
});
