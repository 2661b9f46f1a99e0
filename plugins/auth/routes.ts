import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SESSION_COOKIE } from '../../kernel/http/credentials.js';
import { Errors } from '../../kernel/errors.js';
import { assertStrongApiKey } from './api-key-strength.js';
import { LoginGuard, type LoginLimiter } from './login-guard.js';
import { setSessionCookie } from './session-cookie.js';
import { SharedLoginGuard } from './shared-login-guard.js';
import { ApiKeyCreated, ApiKeyStatus, ErrorBody, LoginBody, SetApiKeyBody, SetupStatus, SetupBody, Success, UserEnvelope } from './schemas.js';

// AUTH_DISABLED: the one trusted caller may do everything.
const LOCAL_USER = { id: 'local', name: 'Local user', email: 'local@localhost', role: 'admin' as const };

export async function authRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { auth, storage } = app.services;
  // Counted in the storage when it offers counters (the instances sharing it count together), else in this process.
  const guard: LoginLimiter = storage.counters ? new SharedLoginGuard(storage.counters) : new LoginGuard();

  app.get('/auth/check-setup', {
    config: { auth: 'public', errors: [Errors.STORAGE_UNAVAILABLE] },
    schema: { tags: ['auth'], operationId: 'checkSetup', summary: 'Whether the first admin account is still to be created', response: { 200: SetupStatus } },
  }, async () => ({ setupRequired: await auth.isSetupRequired() }));

  app.post('/auth/setup', {
    config: { auth: 'public', errors: [Errors.ALREADY_INITIALIZED, Errors.STORAGE_UNAVAILABLE] },
    schema: {
      tags: ['auth'], operationId: 'setupAdmin', summary: 'Create the admin account (once) and log it in',
      body: SetupBody, response: { 200: Success, 409: ErrorBody },
    },
  }, async (request, reply) => {
    const { name, email, password } = request.body;
    await auth.setup({ name, email, password });
    setSessionCookie(request, reply, await auth.login(email, password));
    return { success: true };
  });

  app.post('/auth/login', {
    config: { auth: 'public', errors: [Errors.INVALID_CREDENTIALS, Errors.RATE_LIMITED, Errors.STORAGE_UNAVAILABLE] },
    schema: {
      tags: ['auth'], operationId: 'login', summary: 'Log in: sets the session cookie',
      body: LoginBody, response: { 200: Success, 401: ErrorBody, 429: ErrorBody },
    },
  }, async (request, reply) => {
    const account = request.body.email.trim().toLowerCase();
    const address = request.ip;
    const attempt = await guard.attempt(account, address);
    if ('retryAfterSeconds' in attempt) {
      void reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw Errors.RATE_LIMITED({ seconds: attempt.retryAfterSeconds });
    }
    // An account under attack is slowed down, never closed; shutdown cuts the wait short.
    if (attempt.delayMs > 0) await sleep(attempt.delayMs, undefined, { signal: app.services.shutdownSignal }).catch(() => undefined);
    try {
      const login = await auth.login(request.body.email, request.body.password);
      await attempt.succeeded();
      setSessionCookie(request, reply, login);
      return { success: true };
    } catch (error) {
      // A wrong password stays counted; any other failure counts as no attempt.
      // Never in place of the error being answered: storage down, the take-back fails too.
      if (!Errors.INVALID_CREDENTIALS.is(error)) await Promise.resolve().then(() => attempt.withdraw()).catch(() => undefined);
      throw error;
    }
  });

  app.post('/auth/logout', {
    config: { auth: 'session', access: 'read' },
    schema: { tags: ['auth'], operationId: 'logout', summary: 'End the session and clear its cookie', response: { 200: Success } },
  }, async (request, reply) => {
    if (request.principal.kind === 'session') await auth.logout(request.principal.token);
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true };
  });

  app.get('/auth/me', {
    config: { auth: 'session', access: 'read' },
    schema: { tags: ['auth'], operationId: 'getCurrentUser', summary: 'The logged-in user', response: { 200: UserEnvelope } },
  }, async (request) => ({ user: request.principal.kind === 'session' ? request.principal.user : LOCAL_USER }));

  app.get('/settings/api-key', {
    config: { auth: 'authenticated', access: 'admin' },
    schema: { tags: ['settings'], operationId: 'getApiKeyStatus', summary: 'Whether an API key is set, and its last characters', response: { 200: ApiKeyStatus } },
  }, async () => auth.apiKeyStatus());

  app.post('/settings/api-key', {
    // The body's apiKey is the new key, not a credential.
    config: { auth: 'authenticated', access: 'admin', bodyCredentials: false, errors: [Errors.API_KEY_TOO_LONG, Errors.API_KEY_TOO_WEAK] },
    schema: {
      tags: ['settings'], operationId: 'setApiKey',
      summary: 'Set the API key (`apiKey`: 32 to 512 characters, about 128 bits by estimate), or generate one when none is sent',
      body: SetApiKeyBody, response: { 200: ApiKeyCreated, 400: ErrorBody },
    },
  }, async (request) => {
    const supplied = request.body?.apiKey;
    if (supplied !== undefined) assertStrongApiKey(supplied);
    const apiKey = await auth.setApiKey(supplied);
    return { success: true, apiKey };
  });
}
