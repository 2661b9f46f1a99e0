import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Captures } from './decorators.js';
import './decorators.js';

async function captures(app: FastifyInstance, options: { service: Captures }): Promise<void> {
  app.decorate('captures', options.service);
}

/** `app.captures` for every scope; the executions and runs plugins declare `dependencies: ['taskloom-captures']`. */
export default fp(captures, { name: 'taskloom-captures' });
