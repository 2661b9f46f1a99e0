import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'taskloom_session';

/** The API key a request carries, from any of the five places the interface allows. */
export function apiKeyFrom(request: FastifyRequest, readBody: boolean): string | undefined {
  const headers = request.headers;
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const bearer = header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const fromHeaders = header('x-api-key') ?? header('key') ?? bearer;
  if (fromHeaders !== undefined || !readBody) return fromHeaders;
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const field of ['apiKey', 'key']) {
      if (typeof record[field] === 'string' && record[field] !== '') return record[field] as string;
    }
  }
  return undefined;
}

/** Removes credential fields from a JSON body so they are never stored as data. */
export function stripBodyCredentials(request: FastifyRequest): void {
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    delete (body as Record<string, unknown>).apiKey;
    delete (body as Record<string, unknown>).key;
  }
}

/** The session token from the signed session cookie, when valid. */
export function sessionTokenFrom(request: FastifyRequest): string | undefined {
  const raw = request.cookies?.[SESSION_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}
