// Validators and response serializers compile on their route's first use (kernel/http/schema-compilers.ts), so a
// schema neither can compile no longer stops start-up: it would fail the first request that needs it. This
// keeps the old guarantee: every route of every built-in plugin has its request schemas compiled by TypeBox
// and its response schemas by fast-json-stringify, as the service would on first use.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import fp from 'fastify-plugin';
import type { FastifySchema } from 'fastify';
import { Compile } from 'typebox/compile';
import { Registry } from '../../kernel/registry.js';
import { plugins, providers } from '../../app/built-ins.js';
import { startService } from '../support/service.js';

const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const buildSerializer = (fastifyRequire('@fastify/fast-json-stringify-compiler') as () => (
  external: unknown, options: unknown,
) => (route: { schema: unknown; method: string; url: string; httpStatus: string }) => (data: unknown) => string)();

interface Collected { method: string; url: string; schema: FastifySchema }

describe('route schemas', () => {
  it('every route request and response schema compiles', async () => {
    const routes: Collected[] = [];
    const registry = new Registry();
    // First, and global (fastify-plugin), so its onRoute hook sees every route the others add.
    registry.addPlugin({
      name: 'collect-route-schemas',
      plugin: fp(async (app) => {
        app.addHook('onRoute', (route) => {
          if (route.schema) routes.push({ method: String(route.method), url: route.url, schema: route.schema });
        });
      }, { name: 'collect-route-schemas' }),
    });
    registry.addModule({ providers, plugins });
    const svc = await startService({}, undefined, { registry });
    try {
      const serializerFor = buildSerializer(svc.service.app.getSchemas(), {});
      let validators = 0;
      let serializers = 0;
      for (const { method, url, schema } of routes) {
        for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
          if (schema[part] === undefined) continue;
          assert.doesNotThrow(() => Compile(schema[part] as never), `${method} ${url} ${part}`);
          validators++;
        }
        for (const [httpStatus, response] of Object.entries((schema.response ?? {}) as Record<string, { content?: Record<string, { schema: unknown }> }>)) {
          const bodies = response.content ? Object.values(response.content).map((c) => c.schema) : [response];
          for (const body of bodies) {
            assert.doesNotThrow(() => serializerFor({ schema: body, method, url, httpStatus }), `${method} ${url} ${httpStatus}`);
            serializers++;
          }
        }
      }
      assert.ok(routes.length > 50, `the built-in plugins' routes were seen (${routes.length})`);
      assert.ok(validators > 20 && serializers > 50, `${validators} validators and ${serializers} serializers compiled`);
    } finally {
      await svc.close();
    }
  });
});
