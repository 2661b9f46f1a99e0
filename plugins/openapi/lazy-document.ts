import type { FastifyInstance, RouteOptions } from 'fastify';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';

/** @fastify/swagger's document function (`app.swagger()`): the object, or YAML text with `{ yaml: true }`. */
export type DocumentFunction = (options?: { yaml?: boolean }) => unknown;

type Schemas = Record<string, unknown>;
type Hook = (...args: never[]) => unknown;

/**
 * The OpenAPI document, built by @fastify/swagger on the first call instead of at start-up, where the plugin
 * and what it loads (`yaml`, a schema resolver) cost tens of milliseconds for a document few starts are asked
 * for. At start-up this records, with hooks of its own, what the plugin's hooks would see: every route as
 * Fastify announces it (`onRoute`, registered before the routes, as the plugin is) and each scope's shared
 * schemas at `onReady`. The first call runs the plugin itself against a host that hands it that record, so the
 * document is the plugin's own, built from the same route objects.
 */
export function lazyDocument(app: FastifyInstance, options: () => FastifyDynamicSwaggerOptions): () => Promise<DocumentFunction> {
  const routes: RouteOptions[] = [];
  let scopes: FastifyInstance[] = [];
  let scopeSchemas: Schemas[] = [];
  let rootSchemas: Schemas = {};
  app.addHook('onRoute', (route) => { routes.push(route); });
  app.addHook('onRegister', (scope) => { scopes.push(scope); });
  app.addHook('onReady', async () => {
    scopeSchemas = scopes.map((scope) => scope.getSchemas());
    rootSchemas = app.getSchemas();
    scopes = [];
  });

  async function build(): Promise<DocumentFunction> {
    const { fastifySwagger } = await import('@fastify/swagger');
    const hooks: Record<string, Hook> = {};
    let document: DocumentFunction | undefined;
    // What @fastify/swagger's dynamic mode uses of its Fastify instance; anything else fails loudly here.
    const host = {
      addHook: (name: string, hook: Hook) => { hooks[name] = hook; },
      decorate: (_name: string, value: DocumentFunction) => { document = value; },
      getSchemas: () => rootSchemas,
    };
    await new Promise<void>((resolve, reject) => {
      fastifySwagger(host as unknown as FastifyInstance, options(), (error) => (error ? reject(error) : resolve()));
    });
    const call = (name: string, ...args: unknown[]) => (hooks[name] as (...a: unknown[]) => unknown)(...args);
    for (const schemas of scopeSchemas) await call('onRegister', { getSchemas: () => schemas });
    for (const route of routes) call('onRoute', route);
    await new Promise<void>((resolve) => { call('onReady', resolve); });
    if (!document) throw new Error('@fastify/swagger did not provide its document function');
    return document;
  }

  let built: Promise<DocumentFunction> | undefined;
  return () => (built ??= build().catch((error: unknown) => {
    built = undefined; // a later request tries again
    throw error;
  }));
}
