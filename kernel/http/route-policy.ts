import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors, type ErrorDefinition } from '../errors.js';
import type { AuthPolicy, Principal } from '../services.js';
import { apiKeyFrom, sessionTokenFrom, stripBodyCredentials } from './credentials.js';
import { changesState, refuseCrossSite } from './cross-site.js';

/** One registered route and who may call it (tests walk this; so could an admin page). */
export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthPolicy;
}

const POLICIES: readonly AuthPolicy[] = ['public', 'authenticated', 'session', 'apiKey'];

/**
 * The errors the route policy can answer with under a policy (for the API description): any Host outside
 * ALLOWED_HOSTS (kernel/http/allowed-hosts.ts); reading the session and the setup state needs storage; only a
 * policy that takes one kind of credential refuses the other with 403, as is a cross-site request that changes state.
 */
export function policyErrors(policy: AuthPolicy, method?: string): ErrorDefinition[] {
  const crossSite = method !== undefined && changesState(method) ? [Errors.FORBIDDEN] : [];
  if (policy === 'public') return [Errors.HOST_NOT_ALLOWED, ...crossSite];
  const refused = [Errors.HOST_NOT_ALLOWED, Errors.UNAUTHORIZED, Errors.SETUP_REQUIRED, Errors.STORAGE_UNAVAILABLE];
  return policy === 'authenticated' ? [...refused, ...crossSite] : [...refused, Errors.FORBIDDEN];
}

/**
 * Every route declares `config.auth`; a route without one stops start-up.
 * The guard then establishes `request.principal` before validation, so an anonymous caller
 * hears 401 rather than learning about the body schema.
 */
async function routePolicy(app: FastifyInstance): Promise<void> {
  app.decorateRequest('principal', null as never);

  // A scope that mounts third-party routes (API docs, static files) may set a default for them.
  app.decorate('defaultAuthPolicy', undefined as AuthPolicy | undefined);
  app.decorate('routeTable', [] as RouteEntry[]);
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const policy = route.config?.auth ?? this.defaultAuthPolicy;
    if (!policy || !POLICIES.includes(policy)) {
      throw new Error(`route ${route.method} ${route.url} declares no auth policy (config.auth)`);
    }
    route.config = { ...route.config, auth: policy };
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, auth: policy });
  });

  app.addHook('preValidation', async (request) => {
    request.principal = await authorize(app, request);
    refuseCrossSite(request);
  });
}

async function authorize(app: FastifyInstance, request: FastifyRequest): Promise<Principal> {
  const policy = request.routeOptions.config.auth as AuthPolicy;
  const { auth, config } = app.services;
  const readBody = request.routeOptions.config.bodyCredentials !== false;
  const apiKey = apiKeyFrom(request, readBody);
  if (readBody) stripBodyCredentials(request);
  // A public route reads no session: looking one up needs storage, and health must answer while storage is down.
  if (policy === 'public') return { kind: 'anonymous' };
  const sessionToken = sessionTokenFrom(request);
  // Auth contract 1.1: a provider that knows the caller from the request itself (an SSO proxy's identity header)
  // is asked first; the user it names counts as a dashboard session (with no token of ours to log out).
  const identified = await auth.identify?.({ headers: request.headers, remoteAddress: request.socket.remoteAddress ?? '' });
  const sessionUser = identified ?? (sessionToken ? await auth.resolveSession(sessionToken) : undefined);
  const session: Principal | undefined =
    sessionUser ? { kind: 'session', user: sessionUser, token: identified ? '' : sessionToken ?? '' } : undefined;

  if (config.authDisabled) return session ?? { kind: 'trusted' };
  if (await auth.isSetupRequired()) throw Errors.SETUP_REQUIRED();

  const keyValid = apiKey !== undefined && (await auth.verifyApiKey(apiKey));
  if (apiKey !== undefined && !keyValid && !session) {
    throw Errors.UNAUTHORIZED({ hint: 'the API key is not valid' });
  }
  if (policy === 'session') {
    if (session) return session;
    if (keyValid) throw Errors.FORBIDDEN({ hint: 'this endpoint needs a dashboard session, not an API key' });
    throw Errors.UNAUTHORIZED({ hint: 'log in first (POST /api/auth/login)' });
  }
  if (policy === 'apiKey') {
    if (keyValid) return { kind: 'apiKey' };
    if (session) throw Errors.FORBIDDEN({ hint: 'this endpoint needs the API key, not a dashboard session' });
    throw Errors.UNAUTHORIZED({ hint: 'send the API key in the x-api-key header' });
  }
  if (keyValid) return { kind: 'apiKey' };
  if (session) return session;
  throw Errors.UNAUTHORIZED({ hint: 'send the API key (x-api-key header) or log in' });
}

export default fp(routePolicy, { name: 'taskloom-route-policy', dependencies: ['@fastify/cookie'] });
