import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors, TaskloomError } from '../errors.js';
import { errorBody } from './error-body.js';

/** The one place that turns errors into `{ error, details, requestId }`. Never a stack trace. */
export function toTaskloomError(error: FastifyError | Error, request: FastifyRequest): TaskloomError {
  if (error instanceof TaskloomError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const where = fastifyError.validationContext ?? 'body';
    const first = fastifyError.validation[0];
    const field = first?.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where;
    const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const message = missing ? `${field}.${missing} is required` : `${field} ${first?.message ?? 'is invalid'}`;
    return Errors.VALIDATION_ERROR({ message });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return Errors.PAYLOAD_TOO_LARGE({ limit: request.routeOptions.bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return Errors.UNSUPPORTED_MEDIA_TYPE({ type: request.headers['content-type'] ?? 'none' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.VALIDATION_ERROR({ message: 'body is empty but Content-Type is application/json' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.VALIDATION_ERROR({ message: 'Content-Length does not match the body' });
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return Errors.VALIDATION_ERROR({ message: `body is not valid JSON: ${error.message}` });
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return Errors.VALIDATION_ERROR({ message: error.message });
  }
  return Errors.INTERNAL_ERROR({ requestId: request.id });
}

/**
 * Serialised here rather than by the route's response schema, so a route whose error schema lacks a field
 * (`requestId`) cannot drop it; the schemas still document the body (kernel/http/error-body.ts).
 */
function sendError(reply: FastifyReply, status: number, body: ReturnType<typeof errorBody>): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

async function errorHandler(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toTaskloomError(error, request);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: mapped.code }, mapped.message);
    void sendError(reply, mapped.statusCode, errorBody(mapped.code, mapped.message, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = Errors.NOT_FOUND({ method: request.method, url: request.url.split('?')[0] });
    void sendError(reply, 404, errorBody(error.code, error.message, request.id));
  });
}

export default fp(errorHandler, { name: 'taskloom-error-handler' });
