import { STATUS_CODES } from 'node:http';
import { Errors, type TaskloomError } from '../../../kernel/errors.js';

export const PRODUCT = 'tablestore';
const MAX_TEXT = 300;

/** Removes every occurrence of the token, however the upstream echoed it. */
export function redact(text: string, token: string): string {
  return token === '' ? text : text.split(token).join('[redacted]');
}

/** One short line of upstream text: tags and runs of whitespace gone, cut at MAX_TEXT characters. */
function snippet(text: string): string {
  const flat = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}

/** Baserow answers `{ error: CODE, detail: string | object }`; anything else is shown as text. */
function upstreamText(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const { error, detail } = parsed as { error?: unknown; detail?: unknown };
      const detailText = detail === undefined ? '' : typeof detail === 'string' ? detail : JSON.stringify(detail);
      if (typeof error === 'string') return snippet(detailText ? `${error} (${detailText})` : error);
      if (detailText) return snippet(detailText);
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return snippet(body);
}

const HINTS: Record<number, string> = {
  401: 'check the credential token',
  403: 'check the token has access to this database or table',
  404: 'check the database or table id and the credential base URL',
  429: 'the product is rate limiting: try again later',
};

/** A non-2xx answer. 429 and 5xx are worth retrying; other statuses will answer the same again. */
export function statusError(status: number, body: string, token: string): TaskloomError {
  const text = upstreamText(body);
  const hint = HINTS[status] ?? (status >= 500 ? 'the product failed: try again later' : undefined);
  const reason = `${PRODUCT} answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() +
    (text ? `: ${text}` : '') + (hint ? `; ${hint}` : '');
  return Errors.UPSTREAM_ERROR({ reason: redact(reason, token) }, { retryable: status === 429 || status >= 500 });
}

/** A 2xx answer that is not what the API documents. */
export function shapeError(status: number, what: string, body: string, token: string): TaskloomError {
  const reason = `${PRODUCT} answered ${status} with ${what}: ${snippet(body) || 'an empty body'}; check the credential base URL points at the product`;
  return Errors.UPSTREAM_ERROR({ reason: redact(reason, token) });
}

interface NamedError extends Error {
  reason?: string;
  timedOut?: boolean;
  code?: string;
}

/** The innermost cause's code (`ECONNREFUSED`, ...) or message: fetch's own "fetch failed" says nothing. */
function rootCause(error: unknown): string {
  let code: string | undefined;
  let message = String(error);
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    code = (e as NamedError).code ?? code;
    message = e.message;
  }
  return code ?? message;
}

/**
 * A request that got no usable answer. Errors are recognised by name: a provider imports only the kernel's
 * contracts and errors, not the outbound classes. The cause is not attached, since it may quote the request.
 */
export function transportError(error: unknown, host: string, timeoutMs: number, token: string): TaskloomError {
  const e = error as NamedError;
  let reason: string;
  let retryable = true;
  if (e?.name === 'OutboundBlockedError') {
    reason = `request to ${PRODUCT} at ${host} refused: ${e.reason ?? e.message}`;
    retryable = false;
  } else if (e?.name === 'OutboundRequestError') {
    reason = `${PRODUCT} at ${host}: ${e.reason ?? e.message}`;
    retryable = e.timedOut === true;
  } else if (e?.name === 'TimeoutError') {
    reason = `${PRODUCT} at ${host} did not answer within ${timeoutMs} ms`;
  } else if (e?.name === 'AbortError') {
    reason = `request to ${PRODUCT} at ${host} was cancelled: the service is shutting down`;
  } else {
    reason = `${PRODUCT} at ${host} could not be reached (${rootCause(error)}); check the base URL and that the product is running`;
  }
  return Errors.UPSTREAM_ERROR({ reason: redact(reason, token) }, { retryable });
}
