import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../kernel/errors.js';
import type { Outputs } from './decorators.js';
import type { CredentialService } from './service.js';
import './decorators.js';

/** A task's `output.tableId` may be stored as a number or a numeric string. */
export function toTableId(tableId: number | string): number {
  const value = typeof tableId === 'string' && /^\d{1,15}$/.test(tableId.trim()) ? Number(tableId) : tableId;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw Errors.VALIDATION_ERROR({ message: `output.tableId must be a whole number, got ${JSON.stringify(tableId)}` });
  }
  return value;
}

async function outputs(app: FastifyInstance, options: { service: CredentialService }): Promise<void> {
  const { service } = options;
  const decorator: Outputs = {
    async push(credentialId, tableId, rows) {
      const table = toTableId(tableId);
      if (!Array.isArray(rows)) throw Errors.VALIDATION_ERROR({ message: 'rows must be an array of objects' });
      return service.push(credentialId, table, rows);
    },
  };
  app.decorate('outputs', decorator);
}

/** `app.outputs` for every scope; the runs plugin declares `dependencies: ['taskloom-outputs']`. */
export default fp(outputs, { name: 'taskloom-outputs', decorators: { fastify: ['services'] } });
