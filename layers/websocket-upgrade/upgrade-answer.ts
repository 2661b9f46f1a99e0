import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TaskloomError } from '../../kernel/errors.js';

/** Answers an upgrade request with a plain HTTP response (JSON `body`), then ends the socket. */
export function answer(socket: Duplex, status: number, body: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Answers the upgrade request with the catalogue error's status and `{ error, details }`, then ends it. */
export function refuse(socket: Duplex, error: TaskloomError): void {
  answer(socket, error.statusCode, JSON.stringify({ error: error.code, details: error.message }));
}
