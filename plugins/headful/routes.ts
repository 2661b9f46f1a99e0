import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { HeadfulSession } from './decorators.js';
import { ErrorBody, HeadfulStatusBody, VncPasswordBody } from './schemas.js';

const config = { auth: 'authenticated' } as const;
const tags = ['headful'];

/** `GET /api/headful/status` and `GET /api/headful/vnc-password`. */
export async function headfulRoutes(scope: FastifyInstance, options: { headful: HeadfulSession }): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { headful } = options;

  app.get('/status', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getHeadfulStatus', summary: 'Whether the headful session is served through noVNC, on which port, and whether it runs', response: { 200: HeadfulStatusBody, 401: ErrorBody } },
  }, async () => headful.status());

  app.get('/vnc-password', {
    config: { ...config, access: 'run' },
    schema: { tags, operationId: 'getVncPassword', summary: 'The password of the headful session\'s VNC server (noVNC asks for it)', response: { 200: VncPasswordBody, 401: ErrorBody } },
  }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { password: await headful.vncPassword() };
  });
}
