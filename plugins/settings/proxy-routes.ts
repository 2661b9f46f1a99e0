import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { typedSettings } from './keys.js';
import { createProxyService } from './proxy-service.js';
import { ErrorBody, ProxyBlocks, ProxyBody, ProxyIdsBody, ProxyImportBody, ProxyParams, ProxySettings, RotationBody } from './schemas.js';

const tags = ['settings'];
const config = { auth: 'authenticated' } as const;
/** A server is checked against the private-network rule; a full list refuses more. */
const writing = { ...config, errors: [Errors.INVALID_URL] };
const naming = { ...config, errors: [Errors.PROXY_NOT_FOUND] };
const rewriting = { ...config, errors: [Errors.INVALID_URL, Errors.PROXY_NOT_FOUND] };
const answers = (...statuses: (400 | 404)[]) => ({ 200: ProxySettings, ...Object.fromEntries(statuses.map((s) => [s, ErrorBody])) });

/** `/proxies`: every write answers the whole proxy settings object, passwords masked. */
export async function proxyRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const proxies = createProxyService(typedSettings(app.services.storage.settings), app.services.outbound.guard);

  app.get('/proxies', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getProxySettings', summary: 'The proxy settings object (the built-in `host` entry first)', response: answers() },
  }, async () => proxies.view());

  app.get('/proxies/blocks', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getProxyBlocks', summary: 'Runs and bot walls per site and proxy, and the blocks cooling down', response: { 200: ProxyBlocks } },
  }, async () => {
    const stored = (await proxies.read()).proxies;
    const blocks = app.proxyRotation.blockStats().map((stat) => {
      const proxy = stored.find((candidate) => candidate.server === stat.proxy);
      return { ...stat, ...(proxy ? { proxyId: proxy.id, ...(proxy.label ? { label: proxy.label } : {}) } : {}) };
    });
    return { coolDownMs: app.proxyRotation.blockCoolDownMs, blocks };
  });

  app.post('/proxies', {
    config: { ...writing, access: 'admin' },
    schema: { tags, operationId: 'addProxy', summary: 'Add a proxy (`server` is checked against the private-network rule)', body: ProxyBody, response: answers(400) },
  }, async (request) => proxies.add(request.body));

  app.post('/proxies/import', {
    config: { ...writing, access: 'admin' },
    schema: {
      tags,
      operationId: 'importProxies',
      summary: 'Add many proxies; an entry with a stored server updates it. If any entry fails, nothing changes',
      body: ProxyImportBody,
      response: answers(400),
    },
  }, async (request) => proxies.import(request.body.proxies));

  app.post('/proxies/rotation', {
    config: { ...naming, access: 'admin' },
    schema: { tags, operationId: 'setProxyRotation', summary: 'Set the default proxy and how runs rotate', body: RotationBody, response: answers(400, 404) },
  }, async (request) => proxies.setRotation(request.body));

  app.put('/proxies/:id', {
    config: { ...rewriting, access: 'admin' },
    schema: {
      tags,
      operationId: 'replaceProxy',
      summary: 'Replace a proxy (a password of "********" keeps the stored one)',
      params: ProxyParams,
      body: ProxyBody,
      response: answers(400, 404),
    },
  }, async (request) => proxies.replace(request.params.id, request.body));

  app.delete('/proxies/:id', {
    config: { ...naming, access: 'admin' },
    schema: { tags, operationId: 'deleteProxy', summary: 'Delete a proxy (the default falls back to `host`)', params: ProxyParams, response: answers(400, 404) },
  }, async (request) => proxies.remove([request.params.id]));

  app.delete('/proxies', {
    config: { ...naming, access: 'admin' },
    schema: { tags, operationId: 'deleteProxies', summary: 'Delete several proxies, all or none', body: ProxyIdsBody, response: answers(400, 404) },
  }, async (request) => proxies.remove(request.body.ids));
}
