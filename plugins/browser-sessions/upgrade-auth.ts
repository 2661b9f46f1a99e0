import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors, type TaskloomError } from '../../kernel/errors.js';
import { apiKeyFrom, SESSION_COOKIE } from '../../kernel/http/credentials.js';

/**
 * The API's credentials rule for a WebSocket upgrade, which never reaches Fastify's route policy: the API
 * key in a header, or a dashboard session cookie (AUTH_DISABLED lets everyone in, as it does for routes).
 * Resolves to the refusal, or undefined when the caller may connect.
 */
export async function refuseUpgrade(app: FastifyInstance, req: IncomingMessage): Promise<TaskloomError | undefined> {
  const { auth, config } = app.services;
  if (config.authDisabled) return undefined;
  if (await auth.isSetupRequired()) return Errors.SETUP_REQUIRED();
  // apiKeyFrom reads nothing but the headers when told not to read a body.
  const apiKey = apiKeyFrom({ headers: req.headers } as FastifyRequest, false);
  if (apiKey !== undefined && (await auth.verifyApiKey(apiKey))) return undefined;
  const raw = req.headers.cookie ? app.parseCookie(req.headers.cookie)[SESSION_COOKIE] : undefined;
  const unsigned = raw ? app.unsignCookie(raw) : undefined;
  if (unsigned?.valid && unsigned.value && (await auth.resolveSession(unsigned.value))) {
    // A cookie rides along with any site's WebSocket: only this service's own pages may use it.
    if (req.headers.origin !== undefined && !sameHost(req.headers.origin, req.headers.host)) {
      return Errors.FORBIDDEN({ hint: 'a session cookie is accepted from this service\'s own pages only' });
    }
    return undefined;
  }
  return Errors.UNAUTHORIZED({
    hint: 'use the wsEndpoint of POST /api/browser/open (its token works once, within 60 s), the API key header or a session',
  });
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
