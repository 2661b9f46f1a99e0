import { ApiError, UnreachableError } from './failure.js';

/** Where the service is and the key to show it; `url` has no trailing slash. */
export interface Connection {
  url: string;
  apiKey?: string;
}

export type Query = Record<string, string | number | undefined>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  accept?: string;
  /** Further request headers (`prefer`, ...). */
  headers?: Record<string, string>;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The reason a fetch got no answer, from undici's `cause` (ECONNREFUSED, ENOTFOUND, ...). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown; message?: unknown };
    const details = typeof body.details === 'string' ? body.details : typeof body.message === 'string' ? body.message : undefined;
    return new ApiError(response.status, typeof body.error === 'string' ? body.error : undefined, details);
  } catch {
    return new ApiError(response.status, undefined, undefined);
  }
}

/** A small client of the service's HTTP API; the key travels only in the `x-api-key` header. */
export function createApiClient(connection: Connection) {
  const base = new URL(`${connection.url}/`);

  /** Resolves to a 2xx response; throws ApiError for any other status, UnreachableError without an answer. */
  async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { ...options.headers, accept: options.accept ?? 'application/json' };
    if (connection.apiKey) headers['x-api-key'] = connection.apiKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new UnreachableError(connection.url, reasonOf(error));
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  return {
    url: connection.url,
    send,
    async json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
      const response = await send(method, path, options);
      return (await response.json()) as T;
    },
  };
}
