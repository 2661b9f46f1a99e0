/** Why a pooled context run ended early. Plain errors (not catalogue codes): the runner records them. */

export class ContextTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

export class ContextAbortedError extends Error {
  constructor(reason?: unknown) {
    super(reason instanceof Error ? `Cancelled: ${reason.message}` : 'Cancelled', { cause: reason });
    this.name = 'AbortError';
  }
}

export class BrowserPoolClosedError extends Error {
  constructor() {
    super('The browser pool is closed (the service is shutting down)');
    this.name = 'BrowserPoolClosedError';
  }
}
