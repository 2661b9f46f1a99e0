import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { definePlugin } from '../../kernel/plugin.js';

const CHECK_TIMEOUT_MS = 2000;

const HealthBody = Type.Object({
  // One enum rather than a union of literals: a union makes the response serializer compile an Ajv validator
  // to choose a branch, the first answer's largest cost.
  status: Type.Enum(['ok', 'degraded'], { type: 'string' }),
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
    // Probes ask for health first and often. Its body is built below with exactly the schema's fields, in its
    // order, so JSON.stringify writes what the schema serializer would, without loading fast-json-stringify
    // (tens of milliseconds) before the first healthy answer; the schema still documents the answer.
    serializerCompiler: () => (data) => JSON.stringify(data),
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
