import type { DeliveryRecord } from '../../kernel/contracts/deliveries.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';

/**
 * A run's completion webhook, once settled, is noted on its execution as `webhook` (never its URL, which may carry
 * a token): delivered or not, the last status and error, the attempts and the time from the first to the last.
 */
export async function callbackReport(executions: ExecutionStore, record: DeliveryRecord): Promise<void> {
  if (record.kind !== 'callback' || record.executionId === undefined) return;
  const last = record.attempts.at(-1);
  const webhook: Record<string, unknown> = {
    delivered: record.status === 'delivered',
    attempts: record.attempts.length,
    durationMs: Math.max(0, Date.parse(record.settledAt ?? record.createdAt) - Date.parse(record.createdAt)),
  };
  if (last?.statusCode !== undefined) webhook.status = last.statusCode;
  if (record.status !== 'delivered' && last?.error !== undefined) webhook.error = last.error;
  await executions.update(record.executionId, (execution) => ({ ...execution, webhook }));
}
