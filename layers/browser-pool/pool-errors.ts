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

/** The browser (or the connection to a remote one) went away while a run used it; the run ends as `error`. */
export class BrowserDisconnectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserDisconnectedError';
  }
}

/**
 * No connection to BROWSER_WS_ENDPOINT could be made (every retry failed, or retrying cannot help).
 * `retryable`: whether the run may succeed later (see the contract's RetryableRunError).
 */
export class RemoteBrowserUnavailableError extends Error {
  readonly retryable: boolean;
  constructor(message: string, cause?: unknown, retryable = (cause as { retryable?: unknown })?.retryable !== false) {
    super(message, { cause });
    this.name = 'RemoteBrowserUnavailableError';
    this.retryable = retryable;
  }
}

/**
 * BROWSER_REMOTE_MODE=per-run: the remote browser (a grid) turned the run's session away for now (HTTP 429 or
 * 503 on the connection, or no answer in time). Always retryable: the run may be queued again.
 */
export class RemoteBrowserBusyError extends Error {
  readonly retryable = true;
  readonly code = 'REMOTE_BROWSER_BUSY';
  constructor(message: string, readonly status?: number, cause?: unknown) {
    super(message, { cause });
    this.name = 'RemoteBrowserBusyError';
  }
}

/**
 * A run's page went over its resources (RUN_MEMORY_LIMIT_MB) or crashed; the run ends as `error` with this
 * message, its context closed, while the browser and the other runs go on.
 */
export class RunResourceError extends Error {
  /** `pageDied`: the page's renderer ended (crashed or was ended for its memory); false: a response too large. */
  constructor(message: string, readonly pageDied = true) {
    super(message);
    this.name = 'RunResourceError';
  }
}
