import type { OutputCredentialConfig } from '../../../kernel/contracts/output.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import type { ProviderContext } from '../../../kernel/contracts/provider.js';
import { shapeError, statusError, transportError } from './upstream-error.js';

export type OutboundClient = ProviderContext['outbound']['client'];

export interface TablestoreHttpOptions {
  /** Whole request, body included; default 30 000 ms. */
  timeoutMs?: number;
  /** Cancels requests in flight (the service shutting down). */
  signal?: AbortSignal;
  logger?: Logger;
}

/** Sends one authenticated JSON request and resolves to the parsed answer. */
export type TablestoreCall = (
  config: OutputCredentialConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) => Promise<unknown>;

/** `https://host/base///` -> `https://host/base`, so paths can be appended as they are. */
export function baseUrlOf(config: OutputCredentialConfig): string {
  return config.baseUrl.trim().replace(/\/+$/, '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid base URL';
  }
}

export function createTablestoreCall(client: OutboundClient, options: TablestoreHttpOptions = {}): TablestoreCall {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (config, method, path, body) => {
    const url = baseUrlOf(config) + path;
    const host = hostOf(url);
    const started = Date.now();
    let status: number;
    let text: string;
    try {
      const response = await client.request(url, {
        method,
        headers: {
          authorization: `Token ${config.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs,
        signal: options.signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const failure = transportError(error, host, timeoutMs, config.token);
      options.logger?.debug({ method, host, path, ms: Date.now() - started, reason: failure.message }, 'tablestore call failed');
      throw failure;
    }
    // Only the path is logged: the token travels in a header, never in the URL.
    options.logger?.debug({ method, host, path, status, ms: Date.now() - started }, 'tablestore call');
    if (status < 200 || status > 299) throw statusError(status, text, config.token);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw shapeError(status, 'a body that is not JSON', text, config.token);
    }
  };
}
