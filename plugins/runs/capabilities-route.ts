import type { FastifyInstance } from 'fastify';
import type { Admission } from './admission.js';
import { Capabilities } from './capabilities-schema.js';

/** `GET /api/capabilities` (authenticated). */
export async function capabilitiesRoute(app: FastifyInstance, options: { admission: Admission }): Promise<void> {
  app.get('/capabilities', {
    config: { auth: 'authenticated', access: 'read' },
    schema: {
      tags: ['health'], operationId: 'getCapabilities',
      summary: 'The run limits (configured or computed, and how), the queue\'s fill, and the browser engines available',
      response: { 200: Capabilities },
    },
  }, async () => ({
    runs: await options.admission.report(),
    browser: { engine: app.services.config.browserEngine, engines: app.services.registry.providerIds('browser') },
  }));
}
