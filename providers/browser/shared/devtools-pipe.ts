import type { Readable, Writable } from 'node:stream';

/**
 * The DevTools protocol over the pipe of `--remote-debugging-pipe` (Chromium reads fd 3, writes fd 4): one
 * JSON message per NUL-terminated chunk. Driving a local browser this way skips the WebSocket's framing and
 * its per-message compression, which the engines' WebSocket clients negotiate and which cost about a fifth of
 * the service's CPU per run. Messages are delivered on a later tick, in order: parsed objects (Playwright's
 * transport interface) or, with `text`, the JSON text itself (Puppeteer's).
 */
export class DevToolsPipe<Message extends object | string = object> {
  onmessage?: (message: Message) => void;
  private closeListener?: (reason?: string) => void;
  private pending: Buffer[] = [];
  private closed = false;

  constructor(
    private readonly toBrowser: Writable,
    private readonly fromBrowser: Readable,
    private readonly format: Message extends string ? 'text' : 'object',
  ) {
    fromBrowser.on('data', (chunk: Buffer) => this.receive(chunk));
    fromBrowser.on('close', () => this.markClosed());
    // A browser that dies mid-write surfaces as `close`; the errors themselves say nothing more.
    fromBrowser.on('error', () => undefined);
    toBrowser.on('error', () => undefined);
  }

  get onclose(): ((reason?: string) => void) | undefined {
    return this.closeListener;
  }

  /** Set by the engine after construction; a pipe already closed by then reports it at once. */
  set onclose(listener: ((reason?: string) => void) | undefined) {
    this.closeListener = listener;
    if (listener && this.closed) listener('the browser closed its DevTools pipe');
  }

  send(message: Message): void {
    if (this.closed) throw new Error('the browser closed its DevTools pipe');
    this.toBrowser.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\0`);
  }

  /** Ends the connection; Chromium quits when its pipe closes. */
  close(): void {
    this.toBrowser.end();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeListener?.('the browser closed its DevTools pipe');
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    let end = chunk.indexOf(0);
    while (end !== -1) {
      this.pending.push(chunk.subarray(start, end));
      const text = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      const message = (this.format === 'text' ? text : JSON.parse(text)) as Message;
      setImmediate(() => this.onmessage?.(message));
      start = end + 1;
      end = chunk.indexOf(0, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }
}
