import type { CompletionRequest } from '../../../kernel/contracts/ai.js';
import type { ProviderContext } from '../../../kernel/contracts/provider.js';

export type OutboundClient = ProviderContext['outbound']['client'];
type OutboundHeaders = NonNullable<Parameters<OutboundClient['request']>[1]>['headers'];

/** What one `complete` call runs under. */
export interface Call {
  /** Aborted when the request's `timeoutMs` passed. */
  deadline: AbortSignal;
  /** The caller's signal, if any. */
  caller?: AbortSignal;
  /** Either of the two: hand it to the SDK. */
  signal: AbortSignal;
  /** A fetch for the SDK that goes through the service's outbound client under `signal`. */
  fetch: typeof fetch;
}

/** The outbound client's own timeout trails ours, so a slow answer is reported by our deadline as a timeout. */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

export function startCall(request: CompletionRequest, client: OutboundClient): Call {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  return {
    deadline,
    caller: request.signal,
    signal,
    fetch: outboundFetch(client, signal, request.timeoutMs + CLIENT_TIMEOUT_MARGIN_MS),
  };
}

/**
 * A fetch with the SDKs' signature that sends through `client`: one HTTP stack for every outbound call, with
 * the outbound rule applied to each hop and pinned at connect time. `signal` is joined to the SDK's own, since
 * the Ollama client passes none for a non-streaming call.
 */
export function outboundFetch(client: OutboundClient, signal: AbortSignal, timeoutMs: number): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' || input instanceof URL ? input : input.url;
    const body = init?.body ?? null;
    if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      // The SDKs send JSON text; anything else (a stream) could not be repeated on a redirect.
      throw new TypeError('outbound AI requests carry a string body');
    }
    const signals = init?.signal ? [signal, init.signal] : [signal];
    const response = await client.request(url, {
      method: init?.method ?? 'GET',
      headers: init?.headers as OutboundHeaders,
      body,
      signal: AbortSignal.any(signals),
      timeoutMs,
    });
    // undici's Response is the implementation behind Node's global fetch; only the type names differ.
    return response as unknown as Response;
  }) as typeof fetch;
}

/** `host[:port]` of a base URL, for messages (never its path, query or credentials). */
export function hostOf(baseUrl: string | undefined, fallback: string): string {
  if (baseUrl === undefined) return fallback;
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'an invalid base URL';
  }
}
