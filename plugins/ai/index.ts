import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/plugin.js';
import type { PageCapture } from '../runs/decorators.js';
import { createAiChain } from './chain.js';
import { aiRoutes } from './routes.js';
import { createRepairAdvisor } from './selector/repair.js';
import { createAiService } from './service.js';
import { slotBindings } from './slots.js';

export type { AiChain, AiQuestion, AiAnswer, Verdict } from './chain.js';

/**
 * Chains the slots' providers (the kernel creates them at start-up) over the keys and models the settings plugin
 * keeps, and mounts the endpoints. generate-selector uses the runs plugin's page capture when the composition has
 * one (declared in `uses`; read once the service is ready), and says the browser layer is missing otherwise.
 */
async function ai(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const chain = createAiChain({
    bindings: slotBindings(services),
    settings: services.storage.settings,
    logger: services.logger.child({ plugin: 'ai' }),
  });
  let capture: PageCapture | undefined;
  app.addHook('onReady', async () => {
    capture = app.pageCapture;
    // The runs' repair ladder asks the chain when its deterministic step is not decisive (README "Healing").
    app.runHealing?.setAdvisor(createRepairAdvisor(chain));
  });
  await app.register(aiRoutes, { service: createAiService(chain), capture: () => capture, chain });
}

/** `POST /api/tasks/generate-script` and `POST /api/tasks/generate-selector`, over the AI provider chain. */
export const aiPlugin = definePlugin({
  name: 'ai',
  prefix: '/api',
  uses: ['pageCapture', 'runHealing'],
  plugin: fp(ai, {
    name: 'taskloom-ai', fastify: '5.x', encapsulate: true,
    dependencies: ['taskloom-route-policy', 'taskloom-error-handler', 'taskloom-settings'],
    decorators: { fastify: ['services'] },
  }),
});
