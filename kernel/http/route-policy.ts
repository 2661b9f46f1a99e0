import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors, type ErrorDefinition } from '../errors.js';
import type { Scope } from '../contracts/records.js';
import type { AuthPolicy, Principal } from '../services.js';
import { apiKeyFrom, sessionTokenFrom, stripBodyCredentials } from './credentials.js';
import { changesState, refuseCrossSite } from './cross-site.js';

/** One registered route and who may call it (tests walk this; so could an admin page). */
export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthPolicy;
  /** The scope a caller needs (absent on public routes); plugins/access enforces it. */
  access?: Scope;
}

const POLICIES: readonly AuthPolicy[] = ['public', 'authenticated', 'session', 'apiKey'];
const SCOPES: readonly Scope[] = ['read', 'run', 'write', 'admin'];

/**
 * The errors the route policy can answer with under a policy (for the API description): any Host outside
 * ALLOWED_HOSTS (plugins/allowed-hosts); reading the session and the setup state needs storage; a policy that
 * takes one kind of credential refuses the other with 403, as is a cross-site request that changes state.
 */
export function policyErrors(policy: AuthPolicy, method?: string): ErrorDefinition[] {
  const crossSite = method !== undefined && changesState(method) ? [Errors.FORBIDDEN] : [];
  if (policy === 'public') return [Errors.HOST_NOT_ALLOWED, ...crossSite];
  // Every other route also refuses a caller without its scope (config.access) with 403.
  return [Errors.HOST_NOT_ALLOWED, Errors.UNAUTHORIZED, Errors.SETUP_REQUIRED, Errors.STORAGE_UNAVAILABLE, Errors.FORBIDDEN];
}

/**
 * Every route declares `config.auth`, and every non-public one `config.access` (the scope it needs); a route
 * without them stops start-up.
 * The guard then establishes `request.principal` before validation, so an anonymous caller
 * hears 401 rather than learning about the body schema.
 */
async function routePolicy(app: FastifyInstance): Promise<void> {
  app.decorateRequest('principal', null as never);

  // A scope that mounts third-party routes (API docs, static files) may set a default for them.
  app.decorate('defaultAuthPolicy', undefined as AuthPolicy | undefined);
  app.decorate('defaultAccess', undefined as Scope | undefined);
  app.decorate('routeTable', [] as RouteEntry[]);
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const policy = route.config?.auth ?? this.defaultAuthPolicy;
    if (!policy || !POLICIES.includes(policy)) {
      throw new Error(`route ${route.method} ${route.url} declares no auth policy (config.auth)`);
    }
    const access = policy === 'public' ? undefined : route.config?.access ?? this.defaultAccess;
    if (policy !== 'public' && (!access || !SCOPES.includes(access))) {
      throw new Error(`route ${route.method} ${route.url} declares no access scope (config.access: ${SCOPES.join(' | ')})`);
    }
    route.config = { ...route.config, auth: policy, access };
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, auth: policy, access });
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

  // The system key holds every scope; a named key (auth contract 1.2) its own, and is refused outright once revoked.
  const keyPrincipal: Principal | undefined = apiKey === undefined ? undefined : (await auth.verifyApiKey(apiKey))
    ? { kind: 'apiKey' } : await auth.resolveApiKey?.(apiKey).then((key) => key && { kind: 'apiKey', key });
  const keyValid = keyPrincipal !== undefined;
  if (apiKey !== undefined && !keyValid && !session) {
    throw Errors.UNAUTHORIZED({ hint: 'the API key is not valid' });
  }
  if (policy === 'session') {
    if (session) return session;
    if (keyValid) throw Errors.FORBIDDEN({ hint: 'this endpoint needs a dashboard session, not an API key' });
    throw Errors.UNAUTHORIZED({ hint: 'log in first (POST /api/auth/login)' });
  }
  if (policy === 'apiKey') {
    if (keyPrincipal) return keyPrincipal;
    if (session) throw Errors.FORBIDDEN({ hint: 'this endpoint needs the API key, not a dashboard session' });
    throw Errors.UNAUTHORIZED({ hint: 'send the API key in the x-api-key header' });
  }
  if (keyPrincipal) return keyPrincipal;
  if (session) return session;
  throw Errors.UNAUTHORIZED({ hint: 'send the API key (x-api-key header) or log in' });
}

export default fp(routePolicy, { name: 'taskloom-route-policy', dependencies: ['@fastify/cookie'] });
