import { createRequire } from 'node:module';
import type { FastifySerializerCompiler, FastifyServerOptions } from 'fastify';
import { strictValidatorCompiler } from './validator.js';

type SerializerBuilder = (externalSchemas: unknown, serializerOpts: unknown) => FastifySerializerCompiler<unknown>;

/** Fastify's own serializer builder (fast-json-stringify), resolved from fastify so it is the one Fastify ships with. */
function fastifySerializerBuilder(): SerializerBuilder {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const selector = fromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerBuilder;
  return selector();
}

/**
 * Fastify's default response serializers, each compiled when its route first answers with that status instead
 * of all at start-up: the service has some 160 response schemas and most of them wait long for their first use.
 * fast-json-stringify (and the Ajv it brings) loads with the first one.
 */
function lazySerializerBuilder(externalSchemas: unknown, serializerOpts: unknown): FastifySerializerCompiler<unknown> {
  let compile: FastifySerializerCompiler<unknown> | undefined;
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      compile ??= fastifySerializerBuilder()(externalSchemas, serializerOpts);
      serialize ??= compile(route);
      return serialize(data);
    };
  };
}

/**
 * The service's compilers (Fastify's `schemaController` option): TypeBox validates, so Fastify's Ajv compiler is
 * never built, and response serializers compile lazily. Fastify's option types assume Ajv, hence the cast.
 */
export const schemaController = {
  compilersFactory: { buildValidator: () => strictValidatorCompiler, buildSerializer: lazySerializerBuilder },
} as unknown as FastifyServerOptions['schemaController'];
