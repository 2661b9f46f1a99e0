import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthProvider } from '../../kernel/contracts/auth.js';
import { Errors } from '../../kernel/errors.js';
import { ApiKey, ApiKeyParams, CreatedApiKey, ErrorBody, NewApiKeyBody } from './schemas.js';

const tags = ['api keys'];
const config = { auth: 'authenticated', access: 'admin' } as const;

/** The named-key methods of auth contract 1.2, or a clear refusal from a provider built for 1.0 or 1.1. */
function namedKeys(auth: AuthProvider) {
  const { createApiKey, listApiKeys, revokeApiKey } = auth;
  if (!createApiKey || !listApiKeys || !revokeApiKey) {
    throw Errors.VALIDATION_ERROR({ message: 'the configured AUTH_PROVIDER keeps no named API keys (auth contract 1.2): use the system key (POST /api/settings/api-key)' });
  }
  return { create: createApiKey.bind(auth), list: listApiKeys.bind(auth), revoke: revokeApiKey.bind(auth) };
}

/** `/api/keys`: named API keys with scopes, for the admin scope only. */
export async function apiKeyRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { auth } = app.services;

  app.get('/', {
    config,
    schema: { tags, operationId: 'listApiKeys', summary: 'Every named API key (never the key itself), newest first, revoked ones included', response: { 200: Type.Array(ApiKey) } },
  }, async () => namedKeys(auth).list());

  app.post('/', {
    config,
    schema: {
      tags, operationId: 'createApiKey', body: NewApiKeyBody,
      summary: 'Create a named key with scopes, optionally limited to tasks and with an expiry: the key is in this answer only',
      response: { 201: CreatedApiKey, 400: ErrorBody },
    },
  }, async (request, reply) => reply.status(201).send(await namedKeys(auth).create(request.body)));

  app.delete('/:id', {
    config: { ...config, errors: [Errors.API_KEY_NOT_FOUND] },
    schema: {
      tags, operationId: 'revokeApiKey', params: ApiKeyParams,
      summary: 'Revoke a named key: refused at once on every instance sharing the storage',
      response: { 200: ApiKey, 404: ErrorBody },
    },
  }, async (request) => namedKeys(auth).revoke(request.params.id));
}
