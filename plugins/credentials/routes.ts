import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../kernel/errors.js';
import {
  Credential, CredentialBody, CredentialParams, CredentialUpdateBody, DatabaseParams, ErrorBody, Location, Success,
} from './schemas.js';
import type { CredentialService } from './service.js';

const tags = ['credentials'];
const config = { auth: 'authenticated' } as const;
const upstream = { 400: ErrorBody, 404: ErrorBody, 502: ErrorBody };
const { CREDENTIAL_NOT_FOUND, INVALID_BASE_URL, INVALID_DATABASE_ID, UPSTREAM_ERROR } = Errors;

/** Digits only, and small enough to stay an exact number. */
function databaseIdOf(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw Errors.INVALID_DATABASE_ID({ value: JSON.stringify(raw) });
  return Number(raw);
}

export async function credentialRoutes(scope: FastifyInstance, options: { service: CredentialService }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;

  app.get('/', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'listCredentials', summary: 'Every credential, tokens masked', response: { 200: Type.Array(Credential) } },
  }, async () => service.list());

  app.post('/', {
    config: { ...config, access: 'admin', errors: [INVALID_BASE_URL] },
    schema: {
      tags,
      operationId: 'createCredential',
      summary: 'Save a credential; baseUrl must pass the outbound (SSRF) rule',
      body: CredentialBody,
      response: { 200: Credential, 400: ErrorBody },
    },
  }, async (request) => service.create(request.body));

  app.put('/:id', {
    config: { ...config, access: 'admin', errors: [INVALID_BASE_URL, CREDENTIAL_NOT_FOUND] },
    schema: {
      tags,
      operationId: 'updateCredential',
      summary: `Change a credential; a token left out or sent as the mask stays as stored`,
      params: CredentialParams,
      body: CredentialUpdateBody,
      response: { 200: Credential, 400: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => service.update(request.params.id, request.body));

  app.delete('/:id', {
    config: { ...config, access: 'admin', errors: [CREDENTIAL_NOT_FOUND] },
    schema: { tags, operationId: 'deleteCredential', summary: 'Delete a credential', params: CredentialParams, response: { 200: Success, 404: ErrorBody } },
  }, async (request) => {
    await service.remove(request.params.id);
    return { success: true };
  });

  app.get('/:id/proxy/tablestore/databases', {
    config: { ...config, access: 'read', errors: [CREDENTIAL_NOT_FOUND, UPSTREAM_ERROR] },
    schema: {
      tags,
      operationId: 'listCredentialDatabases',
      summary: 'Databases the credential can see, fetched server-side so the token stays here',
      params: CredentialParams,
      response: { 200: Type.Array(Location), ...upstream },
    },
  }, async (request) => service.databases(request.params.id));

  app.get('/:id/proxy/tablestore/databases/:databaseId/tables', {
    config: { ...config, access: 'read', errors: [CREDENTIAL_NOT_FOUND, INVALID_DATABASE_ID, UPSTREAM_ERROR] },
    schema: {
      tags,
      operationId: 'listCredentialTables',
      summary: 'Tables of one database (databaseId numeric, else INVALID_DATABASE_ID)',
      params: DatabaseParams,
      response: { 200: Type.Array(Location), ...upstream },
    },
  }, async (request) => service.tables(request.params.id, databaseIdOf(request.params.databaseId)));
}
