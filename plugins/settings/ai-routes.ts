import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { createAiKeyService } from './ai-keys.js';
import { createAiModelService } from './ai-models.js';
import { typedSettings } from './keys.js';
import { AiModels, AiModelsBody, ErrorBody, KEY_SLOTS, apiKeysBody, apiKeysReply } from './schemas.js';

const tags = ['settings'];
const config = { auth: 'authenticated' } as const;

/** The four `/provider-?-api-key` endpoints and `/ai-models`. */
export async function aiRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const settings = typedSettings(app.services.storage.settings);
  const keys = createAiKeyService(settings, app.services.outbound.guard);
  const models = createAiModelService(settings);

  for (const { slot, path, field } of KEY_SLOTS) {
    const secret = slot !== 'providerD';
    const shown = secret ? 'each key masked as **** and its last 4 characters' : 'entries whole (not secret)';
    const reply = apiKeysReply(field);
    const name = `${slot[0]!.toUpperCase()}${slot.slice(1)}ApiKeys`; // ProviderAApiKeys

    app.get(path, {
      config: { ...config, access: 'admin' },
      schema: { tags, operationId: `get${name}`, summary: `The keys of AI provider ${slot.slice(-1)}, ${shown}`, response: { 200: reply } },
    }, async () => ({ [field]: await keys.get(slot) }));

    app.post(path, {
      // Provider D's entries are endpoints, checked against the private-network rule.
      config: { ...config, access: 'admin', errors: secret ? [] : [Errors.INVALID_URL] },
      schema: {
        tags,
        operationId: `set${name}`,
        summary: secret
          ? `Replace the keys of AI provider ${slot.slice(-1)} (a masked entry keeps the stored key it masks)`
          : 'Replace the provider D endpoints: each a URL, or a JSON-encoded {"url", "model"}',
        body: apiKeysBody(field),
        response: { 200: reply, 400: ErrorBody },
      },
    }, async (request) => {
      const submitted = (request.body as Record<string, string[]>)[field] ?? [];
      return { [field]: await keys.save(slot, submitted, `body.${field}`) };
    });
  }

  app.get('/ai-models', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getAiModels', summary: 'The default model of each AI provider', response: { 200: AiModels } },
  }, async () => models.get());

  app.post('/ai-models', {
    config: { ...config, access: 'admin' },
    schema: { tags, operationId: 'setAiModels', summary: 'Set the default model of some providers; the others keep theirs', body: AiModelsBody, response: { 200: AiModels, 400: ErrorBody } },
  }, async (request) => models.save(request.body));
}
