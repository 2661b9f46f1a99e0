// Two sites for tests of the outbound rule with ALLOW_PRIVATE_NETWORKS=false: an "allowed" one on 127.0.0.2 (the
// tests' guard lets that address through, standing in for a public host) and a "secret" one on 127.0.0.1 (the
// machine itself) that counts every request, WebSocket and UDP datagram it receives. A table stands in for DNS.
import dgram from 'node:dgram';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutboundGuardOptions } from '../../kernel/outbound/guard.js';
import { tableLookup } from './proxy-servers.js';

export interface OutboundSites {
  /** `http://127.0.0.2:<port>`: `/` (title "allowed"), `/redirect?to=URL`, `/probe` (see PROBE). */
  allowed: string;
  allowedPort: number;
  /** `http://127.0.0.1:<port>`: answers SECRET to anyone (CORS open), counts in `hits`. */
  secret: string;
  secretPort: number;
  /** The UDP port on 127.0.0.1 the probe's WebRTC aims at. */
  udpPort: number;
  /** What reached the secret site: `GET /path`, `WS /path`, `UDP n bytes`. */
  hits: string[];
  /** For startService's `outbound` option: allowed.test -> 127.0.0.2, rebind.test -> 127.0.0.1. */
  guardOptions: Pick<OutboundGuardOptions, 'lookup' | 'allowAddress'>;
  close(): Promise<void>;
}

/**
 * The probe page tries the secret site every way page JavaScript can: fetch, XHR, an image, a WebSocket, fetch by
 * a name resolving to it, and WebRTC (STUN over UDP). `window.probe` resolves to `{ way: result | 'failed' }`.
 */
const PROBE = (secretPort: number, udpPort: number) => `<title>probe</title><script>
window.probe = (async () => {
  const secret = 'http://127.0.0.1:${secretPort}';
  const out = {};
  const attempt = async (name, fn) => {
    try { out[name] = await Promise.race([fn(), new Promise((_, no) => setTimeout(() => no(new Error('slow')), 5000))]); }
    catch { out[name] = 'failed'; }
  };
  await attempt('fetch', async () => (await fetch(secret + '/fetch')).text());
  await attempt('fetchByName', async () => (await fetch('http://rebind.test:${secretPort}/fetch-by-name')).text());
  await attempt('xhr', () => new Promise((ok, no) => {
    const x = new XMLHttpRequest(); x.open('GET', secret + '/xhr'); x.onload = () => ok(x.responseText); x.onerror = no; x.send();
  }));
  await attempt('img', () => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok('loaded'); i.onerror = no; i.src = secret + '/img'; }));
  await attempt('websocket', () => new Promise((ok, no) => {
    const w = new WebSocket('ws://127.0.0.1:${secretPort}/ws'); w.onopen = () => { w.close(); ok('open'); }; w.onerror = no;
  }));
  await attempt('webrtc', async () => {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
    pc.createDataChannel('x');
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((r) => setTimeout(r, 1500));
    pc.close();
    return 'gathered';
  });
  return out;
})();
</script>`;

export async function startOutboundSites(): Promise<OutboundSites> {
  const hits: string[] = [];
  const secret = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('SECRET');
  });
  secret.on('upgrade', (req, socket) => {
    hits.push(`WS ${req.url}`);
    socket.destroy();
  });
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message) => hits.push(`UDP ${message.length} bytes`));
  let secretPort = 0;
  let udpPort = 0;
  const allowed = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://allowed');
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    const html = url.pathname === '/probe' ? PROBE(secretPort, udpPort) : '<title>allowed</title><p id="ok">allowed page</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  secret.listen(0, '127.0.0.1');
  allowed.listen(0, '127.0.0.2');
  udp.bind(0, '127.0.0.1');
  await Promise.all([once(secret, 'listening'), once(allowed, 'listening'), once(udp, 'listening')]);
  secretPort = (secret.address() as AddressInfo).port;
  udpPort = udp.address().port;
  const allowedPort = (allowed.address() as AddressInfo).port;
  const lookup = tableLookup({ 'allowed.test': '127.0.0.2', 'rebind.test': '127.0.0.1' });
  return {
    allowed: `http://127.0.0.2:${allowedPort}`,
    allowedPort,
    secret: `http://127.0.0.1:${secretPort}`,
    secretPort,
    udpPort,
    hits,
    guardOptions: { lookup, allowAddress: (ip) => ip === '127.0.0.2' },
    async close() {
      for (const server of [secret, allowed]) server.closeAllConnections();
      await Promise.all([new Promise((r) => secret.close(r)), new Promise((r) => allowed.close(r)), new Promise<void>((r) => udp.close(() => r()))]);
    },
  };
}
