import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Retention } from './service.js';
import { ErrorBody, RetentionAnswer, RetentionBody, RetentionSaved } from './schemas.js';

const tags = ['settings'];
const config = { auth: 'authenticated' } as const;

/** `GET` and `POST /retention` (under `/api/settings`). */
export async function retentionRoutes(scope: FastifyInstance, options: { retention: Retention }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { retention } = options;

  app.get('/retention', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getRetention', summary: 'How many days executions and their captures are kept (0: forever)', response: { 200: RetentionAnswer } },
  }, async () => retention.policy());

  app.post('/retention', {
    config: { ...config, access: 'admin' },
    schema: {
      tags,
      operationId: 'setRetention',
      summary: 'Set the retention in days (null: back to RETENTION_DAYS); older executions are pruned at once',
      body: RetentionBody,
      response: { 200: RetentionSaved, 400: ErrorBody },
    },
  }, async (request) => {
    const policy = await retention.setDays(request.body.days);
    const { pruned } = await retention.prune();
    return { ...policy, pruned };
  });
}
