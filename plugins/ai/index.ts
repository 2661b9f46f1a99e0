import type { FastifyInstance } from 'fastify';
import { definePlugin } from '../../kernel/registry.js';
import { createAiChain } from './chain.js';
import { aiRoutes } from './routes.js';
import { createAiService } from './service.js';
import { slotBindings } from './slots.js';
import './decorators.js';

export type { PageCapture, CapturedPage, CaptureTask } from './decorators.js';
export type { AiChain, AiQuestion, AiAnswer, Verdict } from './chain.js';

/** Chains the slots' providers (the kernel creates them at start-up) and mounts the endpoints. */
async function ai(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const chain = createAiChain({
    bindings: slotBindings(services),
    settings: services.storage.settings,
    logger: services.logger.child({ plugin: 'ai' }),
  });
  await app.register(aiRoutes, { service: createAiService(chain) });
}

/** `POST /api/tasks/generate-script` and `POST /api/tasks/generate-selector`, over the AI provider chain. */
export const aiPlugin = definePlugin({ name: 'ai', prefix: '/api', plugin: ai });
