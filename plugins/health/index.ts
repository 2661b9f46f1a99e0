import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { definePlugin } from '../../kernel/registry.js';

const CHECK_TIMEOUT_MS = 2000;

const HealthBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  uptime: Type.Number({ description: 'seconds since start' }),
  storage: Type.String(),
  storage_error: Type.Optional(Type.String()),
});

/** Resolves to the reason storage is unusable, or undefined when it answers in time. */
async function storageProblem(check: () => Promise<void>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { storage, startedAtMs } = app.services;
  app.get('/health', {
    config: { auth: 'public' },
    schema: {
      tags: ['health'],
      operationId: 'getHealth',
      summary: 'Whether the service and its storage answer',
      response: { 200: HealthBody, 503: { ...HealthBody, description: 'Degraded: storage does not answer (storage_error says why)' } },
    },
  }, async (_request, reply) => {
    const uptime = Math.round((Date.now() - startedAtMs) / 1000);
    const problem = await storageProblem(() => storage.check());
    if (problem === undefined) return { status: 'ok', uptime, storage: storage.kind };
    return reply.status(503).send({ status: 'degraded', uptime, storage: storage.kind, storage_error: problem });
  });
}

/** `GET /api/health`: public; 503 `degraded` while storage is unreachable. */
export const healthPlugin = definePlugin({ name: 'health', prefix: '/api', plugin: healthRoutes });
