import type { FastifyInstance } from 'fastify';
import { depthLimitedJsonParser } from '../../layers/json-depth/json-depth.js';

/** `type/subtype`, optionally followed by parameters. */
const MEDIA_TYPE = /^\s*[^\s/;]+\/[^\s/;]+\s*(;|$)/;

/**
 * The spec's rule for `POST /api/tasks/{id}/api`: without `Content-Type: application/json` the body is `{}`,
 * whatever it holds (text, a form, nothing). Applied to this plugin's scope only: any other type is read (up to
 * the body limit) and ignored, and an empty JSON body is `{}` instead of an error. JSON is still parsed by
 * Fastify's own parser (prototype-poisoning checks included), behind the kernel's nesting limit.
 */
export function acceptAnyBody(scope: FastifyInstance): void {
  const parseJson = depthLimitedJsonParser(scope);
  scope.removeAllContentTypeParsers(); // Fastify's text/plain parser too
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, done);
  });
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, {}));
  // Fastify answers 415 to a type it cannot parse (`json`, empty) before any parser: make it one `*` takes.
  scope.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (type !== undefined && !MEDIA_TYPE.test(type)) request.headers['content-type'] = 'application/octet-stream';
  });
  // So the API description lists no 415 for this scope's routes.
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, anyMediaType: true };
  });
}
