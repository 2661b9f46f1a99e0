import pg from 'pg';
import type { Logger } from '../../../kernel/contracts/logger.js';

/** The channel every process LISTENs on for jobs; a notification's payload is the queue that got a job. */
export const WAKE_CHANNEL = 'taskloom_queue';
const RECONNECT_MS = 1_000;
/** A connection that stops answering (a silent peer) is noticed within about this long plus the ping's limit. */
const PING_EVERY_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;

export interface EngineListener {
  /** Settles once the first LISTEN was tried (it may have failed: it keeps trying meanwhile). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * A connection of its own that LISTENs on `channels` and hands every notification to `receive`: jobs enqueued by
 * any process (idle workers fetch at once instead of at their next poll) and topic messages. Reconnects after a lost
 * connection, and pings it so one that went silent is replaced; the workers' poll covers the gap for jobs, and what
 * was published meanwhile is missed (topics promise no history).
 */
export function listenOnEngine(url: string, channels: string[], logger: Logger, receive: (channel: string, payload: string) => void): EngineListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({
      connectionString: url, application_name: 'taskloom-queue-listen', keepAlive: true, keepAliveInitialDelayMillis: PING_EVERY_MS,
      connectionTimeoutMillis: PING_TIMEOUT_MS * 2, query_timeout: PING_TIMEOUT_MS,
    });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      clearInterval(ping);
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      next.connection?.stream?.destroy();
      if (stopped) return;
      logger.warn({ err: error }, 'the queue\'s LISTEN connection failed; reconnecting (workers poll meanwhile, topic messages are missed)');
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    next.on('notification', (message) => { if (message.payload !== undefined) receive(message.channel, message.payload); });
    next.on('error', fail);
    next.on('end', () => fail(new Error('the LISTEN connection ended')));
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN "${channel}"`);
      client = next;
      if (stopped) {
        await next.end();
        return;
      }
      clearInterval(ping);
      ping = setInterval(() => void next.query('SELECT 1').catch(fail), PING_EVERY_MS);
      ping.unref();
    } catch (error) {
      fail(error);
    }
  };

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
