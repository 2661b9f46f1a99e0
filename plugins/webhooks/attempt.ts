import { OutboundBlockedError, OutboundRequestError, type OutboundClient } from '../../kernel/outbound/index.js';
import { parseRetryAfter, retryableStatus, type AttemptResult } from './retry-policy.js';

/** How much of an answer a delivery keeps (the log shows it). */
const EXCERPT_CHARS = 200;

export interface AttemptRequest {
  url: string;
  payload: string;
  headers: Record<string, string>;
  /** The whole attempt, answer included, is cut at this (10 s by default). */
  timeoutMs: number;
}

export type AttemptOutcome = AttemptResult & { latencyMs: number; excerpt?: string };

function describeFailure(error: unknown): { error: string; retry: boolean } {
  if (error instanceof OutboundBlockedError) return { error: `refused: ${error.reason}`, retry: false };
  if (error instanceof OutboundRequestError) return { error: error.reason, retry: true };
  // fetch says "fetch failed" and keeps the system error (ECONNREFUSED, ...) as its cause.
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) return { error: `connection failed (${code})`, retry: true };
  }
  return { error: 'the request failed', retry: true };
}

/** The first characters of the answer, read within what is left of the attempt's time. */
async function excerptOf(response: Response, deadline: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), Math.max(0, deadline - Date.now()));
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // a body cut short keeps what was read
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return text === '' ? undefined : text.slice(0, EXCERPT_CHARS);
}

/** One POST. Never throws: a failure is an outcome, retryable or not. */
export async function attemptDelivery(client: OutboundClient, request: AttemptRequest): Promise<AttemptOutcome> {
  const started = Date.now();
  try {
    const response = await client.request(request.url, {
      method: 'POST',
      body: request.payload,
      timeoutMs: request.timeoutMs,
      maxRedirects: 3,
      headers: { 'content-type': 'application/json', 'user-agent': 'taskloom-webhook', ...request.headers },
    });
    const latencyMs = Date.now() - started;
    const excerpt = await excerptOf(response, started + request.timeoutMs);
    const status = response.status;
    const shown = excerpt === undefined ? {} : { excerpt };
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, retry: false, latencyMs, ...shown };
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return {
      ok: false, statusCode: status, error: `the receiver answered ${status}`, retry: retryableStatus(status), latencyMs, ...shown,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    return { ok: false, ...describeFailure(error), latencyMs: Date.now() - started };
  }
}
