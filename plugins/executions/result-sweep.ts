import type { KernelServices } from '../../kernel/services.js';
import { sweepOrphanResults } from '../../layers/stored-results/orphan-sweep.js';

const EVERY_MS = 60 * 60 * 1000;

/**
 * The sweep of stored-apart results no record names (layers/stored-results/orphan-sweep.ts): once the service is
 * ready, then hourly. A failure is logged and tried again at the next hour.
 */
export function sweepEveryHour(services: KernelServices) {
  const logger = services.logger.child({ plugin: 'executions' });
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => sweepOrphanResults(services.blob, services.storage.executions, logger)
    .catch((error: unknown) => logger.warn({ err: error }, 'sweeping orphaned stored-apart results failed; trying again in an hour'));
  return {
    start(): void {
      void sweep();
      timer = setInterval(() => void sweep(), EVERY_MS).unref();
    },
    stop(): void {
      clearInterval(timer);
    },
  };
}
