import type { FastifyInstance } from 'fastify';
import { Errors } from '../../kernel/errors.js';

/** A refused run (429 QUEUE_FULL), from whichever route started it, says when to try again (admission.ts computes it). */
export function retryAfterOnQueueFull(app: FastifyInstance): void {
  app.addHook('onError', async (_request, reply, error) => {
    const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (Errors.QUEUE_FULL.is(error) && typeof seconds === 'number') void reply.header('retry-after', String(seconds));
  });
}
