import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import { createHostRule, hostRefusal, hostsNamedBy } from '../../layers/allowed-hosts/host-rule.js';
import { userScopes } from '../access-scopes/scopes.js';
import type { PublicUser } from '../../kernel/contracts/auth.js';
import { apiKeyFrom, SESSION_COOKIE } from '../../kernel/http/credentials.js';
import { addressedAs, crossSiteReason, originFrom } from '../../kernel/http/cross-site.js';

/**
 * The API's rules for a WebSocket upgrade, which never reaches Fastify's hooks: a Host from ALLOWED_HOSTS, then
 * the user the auth provider identifies from the request, the system API key in a header, or a dashboard session cookie
 * of a user with the `run` scope (AUTH_DISABLED lets everyone in, as it does for routes). Named keys are refused.
 * A cookie, or nothing at all, rides along with any page's WebSocket (no CORS guards it), so then only this
 * service's own pages may connect. Resolves to the refusal, or undefined when the caller may connect.
 */
export async function refuseUpgrade(app: FastifyInstance, req: IncomingMessage): Promise<TaskloomError | undefined> {
  const { auth, config } = app.services;
  const { protocol, host } = addressedAs(req, config.trustProxy);
  const wrongHost = hostRefusal(createHostRule(config), hostsNamedBy(req.headers, config.trustProxy));
  if (wrongHost) return wrongHost;
  const crossSite = () => {
    const reason = crossSiteReason(req.headers, originFrom(protocol, host));
    return reason === undefined ? undefined : Errors.FORBIDDEN({
      hint: `Cross-site WebSocket refused: ${reason}. A session cookie (or AUTH_DISABLED) is accepted from this service's own pages only`,
    });
  };
  // Every WebSocket drives or watches a browser (DevTools, a live view): the `run` scope (a viewer has only `read`).
  const mayRun = (user: PublicUser) => userScopes(user).includes('run') ? crossSite()
    : Errors.FORBIDDEN({ hint: `a browser's WebSocket needs the "run" scope, which your role (${user.role}) does not have` });
  if (config.authDisabled) return crossSite();
  // An identity the auth provider reads from the request (an SSO proxy's header, auth contract 1.1) rides along
  // with any page's WebSocket as a cookie does: a session, from this service's own pages only.
  try {
    const identified = await auth.identify?.({ headers: req.headers, remoteAddress: req.socket.remoteAddress ?? '' });
    if (identified) return mayRun(identified);
  } catch (error) {
    if (error instanceof TaskloomError) return error;
    throw error;
  }
  if (await auth.isSetupRequired()) return Errors.SETUP_REQUIRED();
  // apiKeyFrom reads nothing but the headers when told not to read a body.
  const apiKey = apiKeyFrom({ headers: req.headers } as FastifyRequest, false);
  if (apiKey !== undefined && (await auth.verifyApiKey(apiKey))) return undefined;
  const raw = req.headers.cookie ? app.parseCookie(req.headers.cookie)[SESSION_COOKIE] : undefined;
  const unsigned = raw ? app.unsignCookie(raw) : undefined;
  const user = unsigned?.valid && unsigned.value ? await auth.resolveSession(unsigned.value) : undefined;
  if (user) return mayRun(user);
  return Errors.UNAUTHORIZED({
    hint: 'use the wsEndpoint of POST /api/browser/open (its token works once, within 60 s), the API key header or a session',
  });
}

/**
 * The rules for a WebSocket that needs no user (a handoff page's, which holds its own secret): a Host from
 * ALLOWED_HOSTS, and only from this service's own pages (a cookie rides along with any page's WebSocket).
 */
export function refusePublicUpgrade(app: FastifyInstance, req: IncomingMessage): TaskloomError | undefined {
  const { config } = app.services;
  const { protocol, host } = addressedAs(req, config.trustProxy);
  const wrongHost = hostRefusal(createHostRule(config), hostsNamedBy(req.headers, config.trustProxy));
  if (wrongHost) return wrongHost;
  const reason = crossSiteReason(req.headers, originFrom(protocol, host));
  return reason === undefined ? undefined : Errors.FORBIDDEN({ hint: `Cross-site WebSocket refused: ${reason}` });
}
