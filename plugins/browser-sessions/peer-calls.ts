import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PEER_HEADER } from './peer-auth.js';

/** How long connecting to a peer, and its answer to an upgrade, may take. */
const PEER_TIMEOUT_MS = 10_000;
/** Closing a browser takes a moment (its pool, its helpers). */
const CLOSE_TIMEOUT_MS = 20_000;
/** The most of a refusal's body relayed back to the client. */
const MAX_ANSWER_BYTES = 16 * 1024;
// What a WebSocket handshake needs end to end; credentials (cookie, API key, token) stay with the first instance.
const HANDSHAKE_HEADERS = ['upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol', 'sec-websocket-extensions'];

/** A plain HTTP answer of a peer (a refusal of an upgrade, or the answer to a close). */
export interface PeerAnswer {
  status: number;
  body: string;
}

function requestTo(base: string, path: string, init: { method: string; headers: Record<string, string>; timeoutMs: number }): http.ClientRequest {
  const url = new URL(path, base);
  const client = url.protocol === 'https:' ? https : http;
  const request = client.request(url, { method: init.method, headers: { ...init.headers, connection: 'Upgrade' }, timeout: init.timeoutMs });
  request.on('timeout', () => request.destroy(new Error(`no answer from ${url.origin} within ${init.timeoutMs} ms`)));
  return request;
}

function readAnswer(response: IncomingMessage): Promise<PeerAnswer> {
  return new Promise((resolve) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => { if (body.length < MAX_ANSWER_BYTES) body += chunk; });
    const done = () => resolve({ status: response.statusCode ?? 502, body: body.slice(0, MAX_ANSWER_BYTES) });
    response.on('end', done);
    response.on('error', done);
  });
}

/**
 * Hands a client's WebSocket upgrade to the instance holding the browser: the same handshake (so the client and the
 * holder agree on it end to end), with the peer header instead of the client's credentials, then the two sockets
 * piped as they are; the holder's relay judges every message. Resolves to undefined once piping, or to the holder's
 * plain answer when it refused (the caller passes it on); rejects when the holder cannot be reached.
 */
export function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: { base: string; path: string; peer: string },
  track: (ends: Duplex[]) => void): Promise<PeerAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { [PEER_HEADER]: target.peer };
    for (const name of HANDSHAKE_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = requestTo(target.base, target.path, { method: 'GET', headers, timeoutMs: PEER_TIMEOUT_MS });
    upstream.once('error', reject);
    upstream.once('response', (response) => resolve(readAnswer(response)));
    upstream.once('upgrade', (response, held: Duplex, heldHead: Buffer) => {
      upstream.setTimeout(0);
      (held as Socket).setTimeout(0);
      const lines = [`HTTP/1.1 101 ${response.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < response.rawHeaders.length; i += 2) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (heldHead.length > 0) socket.write(heldHead);
      if (head.length > 0) held.write(head);
      const end = () => { socket.destroy(); held.destroy(); };
      for (const side of [socket, held]) {
        side.on('error', end);
        side.on('close', end);
      }
      held.pipe(socket);
      socket.pipe(held);
      track([socket, held]);
      resolve(undefined);
    });
    upstream.end();
  });
}

/**
 * Opens a raw tunnel to the holder (an upgrade to the protocol `taskloom-vnc`): resolves to the socket once it
 * switched, to its plain answer when it refused; rejects when it cannot be reached.
 */
export function openTunnel(target: { base: string; path: string; peer: string }): Promise<Duplex | PeerAnswer> {
  return new Promise((resolve, reject) => {
    const request = requestTo(target.base, target.path, { method: 'GET', headers: { upgrade: 'taskloom-vnc', [PEER_HEADER]: target.peer }, timeoutMs: PEER_TIMEOUT_MS });
    request.once('error', reject);
    request.once('response', (response) => resolve(readAnswer(response)));
    request.once('upgrade', (_response, held: Duplex, heldHead: Buffer) => {
      request.setTimeout(0);
      (held as Socket).setTimeout(0);
      if (heldHead.length > 0) held.unshift(heldHead);
      resolve(held);
    });
    request.end();
  });
}

/** Asks the holder to close `sessionId`; resolves to its answer, rejects when it cannot be reached. */
export function closeOnPeer(target: { base: string; path: string; peer: string }): Promise<PeerAnswer> {
  return new Promise((resolve, reject) => {
    const request = requestTo(target.base, target.path, { method: 'POST', headers: { upgrade: 'taskloom-peer', [PEER_HEADER]: target.peer }, timeoutMs: CLOSE_TIMEOUT_MS });
    request.once('error', reject);
    request.once('response', (response) => resolve(readAnswer(response)));
    request.once('upgrade', (_response, held: Duplex) => {
      held.destroy();
      reject(new Error('the peer switched protocols on a close'));
    });
    request.end();
  });
}
