import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { definePlugin } from '../../kernel/plugin.js';
import { errorCatalogue } from '../../kernel/errors.js';
import { componentSchemas } from './component-refs.js';
import { DOCS_PREFIX, lazyDocsUi } from './docs-ui.js';
import { lazyDocument } from './lazy-document.js';
import { describeOperation } from './operation.js';

const errorCodes = () => errorCatalogue().map((e) => `| ${e.statusCode} | \`${e.code}\` |`).join('\n');

/** @fastify/swagger's options, made when the document is first built. */
function documentOptions(): FastifyDynamicSwaggerOptions {
  return {
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
        schemas: componentSchemas() as never,
      },
    },
    transform: ({ schema, url, route }) => {
      const described = describeOperation({ schema, url, route });
      return { schema: described.schema as typeof schema, url: described.url };
    },
  };
}

/**
 * Collects every route's schema into an OpenAPI 3.1 document (`/api/openapi.json`) and serves a
 * browsable reference at `/api/docs`. It observes routes (`observesRoutes`): mounted before every plugin that adds some. Each operation gets its
 * operationId, responses and error codes from operation.ts; the named record schemas become components.
 * Start-up only records the routes: the document and the reference are built on their first request.
 */
async function openapi(app: FastifyInstance): Promise<void> {
  const document = lazyDocument(app, documentOptions);
  const serveDocs = lazyDocsUi(app.log, document);
  await app.register(async (docs) => {
    docs.defaultAuthPolicy = 'public';
    const schema = { hide: true };
    docs.get('/api/openapi.json', { schema }, async () => (await document())());
    docs.get(DOCS_PREFIX, { schema }, serveDocs);
    docs.get(`${DOCS_PREFIX}/*`, { schema }, serveDocs);
  });
}

export const openapiPlugin = definePlugin({
  name: 'openapi',
  observesRoutes: true,
  plugin: fp(openapi, { name: 'taskloom-openapi', dependencies: ['taskloom-route-policy'] }),
});
