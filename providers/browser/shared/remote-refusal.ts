/**
 * A connection to a remote browser that the endpoint turned away for now (see `BrowserDriver.launch`): a grid
 * at capacity answers the WebSocket upgrade (or the DevTools `/json/version` request) with HTTP 429 or 503, or
 * holds it without an answer. The error carries `busy: true` and, when known, `status`; the message never
 * quotes the endpoint.
 */
export class RemoteRefusalError extends Error {
  readonly busy = true;
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'RemoteRefusalError';
  }
}

const STATUS_TEXT: Record<number, string> = { 429: 'Too Many Requests', 503: 'Service Unavailable' };

/**
 * The refusal `error` stands for, or undefined when it is another failure. Reads the messages of the WebSocket
 * client both engines use (`Unexpected server response: 429`), Playwright's (`ws://… 429 Too Many Requests`,
 * `Unexpected status 503 when connecting to …/json/version`, `Timeout 1500ms exceeded`) and Puppeteer's
 * (`…/json/version: HTTP Service Unavailable`, and the engine's own `Timed out after … ms`).
 */
export function refusalOf(error: unknown, timeoutMs: number): RemoteRefusalError | undefined {
  const message = String((error as Error)?.message ?? error);
  const status = statusIn(message);
  if (status !== undefined) return new RemoteRefusalError(`it answered HTTP ${status} ${STATUS_TEXT[status]} (busy: at capacity or rate-limited)`, status);
  if (/Timeout \d+ ?ms exceeded|Timed out after \d+ ms/i.test(message)) {
    return new RemoteRefusalError(`it did not accept the connection within ${timeoutMs} ms`);
  }
  return undefined;
}

function statusIn(message: string): number | undefined {
  const numeric = /(?:Unexpected server response: |Unexpected status )(429|503)\b|\s(429|503) (?:Too Many Requests|Service Unavailable)/.exec(message);
  if (numeric) return Number(numeric[1] ?? numeric[2]);
  if (/HTTP Too Many Requests/.test(message)) return 429;
  if (/HTTP Service Unavailable/.test(message)) return 503;
  return undefined;
}
