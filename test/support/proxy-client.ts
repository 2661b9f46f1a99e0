// Speaking to a forward proxy as a browser does, and a logger that keeps what it is given.
import http from 'node:http';
import type { Logger } from '../../kernel/contracts/logger.js';

export interface ProxyAnswer {
  status: number;
  body: string;
}

/** An absolute-form GET of `url` through the proxy at `proxyUrl`. */
export function getThrough(proxyUrl: string, url: string): Promise<ProxyAnswer> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: proxy.hostname, port: proxy.port, path: url, agent: false, setHost: false, headers: { host: safeHost(url) } });
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.once('error', reject);
    request.end();
  });
}

/** CONNECT `target` (host:port) through the proxy; when it opens, one GET / over the tunnel gives the body. */
export function connectThrough(proxyUrl: string, target: string): Promise<ProxyAnswer> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target, agent: false });
    request.once('connect', (response, socket, head) => {
      if (response.statusCode !== 200) {
        let body = String(head);
        socket.on('data', (chunk: Buffer) => { body += String(chunk); });
        socket.once('close', () => resolve({ status: response.statusCode ?? 0, body }));
        socket.resume();
        return;
      }
      socket.write('GET / HTTP/1.1\r\nHost: tunnel\r\nConnection: close\r\n\r\n');
      let raw = '';
      socket.on('data', (chunk: Buffer) => { raw += String(chunk); });
      socket.once('close', () => resolve({ status: 200, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) }));
      socket.once('error', () => undefined);
    });
    // Node turns a non-2xx answer to CONNECT into a plain response.
    request.once('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += String(chunk); });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.once('error', reject);
    request.end();
  });
}

/** A Host header for `url`, or a placeholder when it cannot be parsed (the proxy judges the request line). */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
}

export interface CapturedLogs {
  logger: Logger;
  /** Every object logged, with its message as `msg`. */
  lines: Array<Record<string, unknown>>;
  /** All of it as one string, for "never logged" checks. */
  text(): string;
}

export function captureLogger(): CapturedLogs {
  const lines: Array<Record<string, unknown>> = [];
  const keep = (obj: unknown, msg?: string) => { lines.push({ ...(obj as Record<string, unknown>), msg }); };
  const logger: Logger = { fatal: keep, error: keep, warn: keep, info: keep, debug: keep, trace: keep, child: () => logger };
  return { logger, lines, text: () => JSON.stringify(lines) };
}

