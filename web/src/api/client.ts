/** The dashboard's only way to the service: same-origin fetch with the session cookie. */

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, readonly details: string) {
    super(details ? `${code}: ${details}` : code);
    this.name = 'ApiError';
  }

  /** The endpoint does not exist on this server yet (the route itself is unknown, not the record). */
  get notAvailable(): boolean {
    return this.status === 404 && this.code === 'NOT_FOUND' && this.details.startsWith('Route ');
  }
}

type Listener = (error: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any request answers 401 (session expired, setup required): the app goes back to login. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  /** Do not tell the unauthorized listeners (the auth screens expect 401s). */
  quiet401?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Prefer: respond-async`). */
  headers?: Record<string, string>;
  /** Sees the response headers of a success (e.g. a task's ETag). */
  onHeaders?: (headers: Headers) => void;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let payload: string | Blob | undefined;
  if (body instanceof Blob) { // a file, sent as the raw body (task files)
    headers['content-type'] = body.type || 'application/octet-stream';
    payload = body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: options.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'The service did not answer: is it running?');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const errorBody = (parsed && typeof parsed === 'object' ? parsed : {}) as { error?: string; details?: string };
    const error = new ApiError(response.status, errorBody.error ?? `HTTP_${response.status}`, errorBody.details ?? (typeof parsed === 'string' ? parsed.slice(0, 300) : ''));
    if (response.status === 401 && !options.quiet401) for (const listener of unauthorizedListeners) listener(error);
    throw error;
  }
  options.onHeaders?.(response.headers);
  return parsed as T;
}

export const get = <T>(path: string, options?: RequestOptions) => api<T>('GET', path, undefined, options);
export const post = <T>(path: string, body?: unknown, options?: RequestOptions) => api<T>('POST', path, body ?? {}, options);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const del = <T>(path: string, body?: unknown) => api<T>('DELETE', path, body);

/** Encodes one path segment. */
export const seg = (value: string | number) => encodeURIComponent(String(value));

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
