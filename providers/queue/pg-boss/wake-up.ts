import pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';

/** The channel every process LISTENs on; a notification's payload is the queue that got a job. */
export const WAKE_CHANNEL = 'taskloom_queue';
const RECONNECT_MS = 1_000;

export interface WakeUps {
  /** Settles once the first LISTEN was tried (it may have failed: the workers poll meanwhile). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * A connection of its own that LISTENs for jobs enqueued by any process and calls `wake(queue)`, so an idle
 * worker fetches at once instead of at its next poll. Reconnects after a lost connection; the workers' poll
 * covers the gap.
 */
export function listenForJobs(url: string, logger: Logger, wake: (queue: string) => void): WakeUps {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, application_name: 'taskloom-queue-listen' });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      if (stopped) return;
      logger.warn({ err: error }, 'the queue\'s LISTEN connection failed; reconnecting (workers poll meanwhile)');
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    next.on('notification', (message) => { if (message.payload) wake(message.payload); });
    next.on('error', fail);
    try {
      await next.connect();
      await next.query(`LISTEN ${WAKE_CHANNEL}`);
      client = next;
      if (stopped) await next.end();
    } catch (error) {
      fail(error);
    }
  };

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
