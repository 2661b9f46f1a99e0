import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { definePlugin } from '../../kernel/registry.js';
import { errorCatalogue } from '../../kernel/errors.js';
import { componentSchemas } from './component-refs.js';
import { describeOperation } from './operation.js';

const errorCodes = () => errorCatalogue().map((e) => `| ${e.statusCode} | \`${e.code}\` |`).join('\n');

/**
 * Collects every route's schema into an OpenAPI 3.1 document (`/api/openapi.json`) and serves a
 * browsable reference at `/api/docs`. Registered first so it sees every later route. Each operation gets its
 * operationId, responses and error codes from operation.ts; the named record schemas become components.
 */
async function openapi(app: FastifyInstance): Promise<void> {
  // Read by @fastify/swagger when it first builds the document; filled by the first request for it (below), so
  // start-up does not pay for a document nobody may ask for.
  const schemas: Record<string, object> = {};
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'taskloom',
        version: '1',
        description: `Self-hosted browser automation.\n\nEvery error body is \`{ error, details, requestId }\`; \`requestId\` is also the \`X-Request-Id\` response header. Codes:\n\n| status | error |\n|---|---|\n${errorCodes()}`,
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: 'taskloom_session' },
        },
        schemas,
      },
    },
    transform: ({ schema, url, route }) => {
      const described = describeOperation({ schema, url, route });
      return { schema: described.schema as typeof schema, url: described.url };
    },
  });

  await app.register(async (docs) => {
    docs.defaultAuthPolicy = 'public';
    docs.addHook('onRequest', async () => {
      if (Object.keys(schemas).length === 0) Object.assign(schemas, componentSchemas());
    });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => docs.swagger());
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}

export const openapiPlugin = definePlugin({
  name: 'openapi',
  plugin: fp(openapi, { name: 'taskloom-openapi', dependencies: ['taskloom-route-policy'] }),
});
