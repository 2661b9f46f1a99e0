import type { MongoClientOptions } from 'mongodb';

/** The driver's time limits, in ms. A parameter of the same name in MONGODB_URL wins over them. */
export interface MongoTimeouts {
  /** How long an operation looks for a usable server (serverSelectionTimeoutMS). Default 5000. */
  serverSelectionTimeoutMs?: number;
  /** Opening a connection, TLS and handshake included (connectTimeoutMS). Default 5000. */
  connectTimeoutMs?: number;
  /**
   * A send or receive on a socket with no progress for this long fails the operation and closes that connection
   * (socketTimeoutMS; the driver's default, 0, waits forever on a peer that stopped answering). Default 15000.
   */
  socketTimeoutMs?: number;
}

export const MONGO_DEFAULTS = {
  poolSize: 10,
  serverSelectionTimeoutMs: 5_000,
  connectTimeoutMs: 5_000,
  socketTimeoutMs: 15_000,
  /** How often the monitor checks the server: it marks a silent one unknown and clears its pool. */
  heartbeatFrequencyMs: 5_000,
  /** Waiting for a free connection of a full pool (waitQueueTimeoutMS; the default waits forever). */
  waitQueueTimeoutMs: 5_000,
  /** An idle connection is closed after this, so a dead one does not linger (maxIdleTimeMS; default never). */
  maxIdleTimeMs: 60_000,
} as const;

/** The MONGODB_URL query parameters, lower-cased: the operator's choice wins over the defaults here. */
function urlParameters(url: string): Set<string> {
  const query = url.split('?')[1]?.split('#')[0] ?? '';
  return new Set(query.split('&').map((pair) => pair.split('=')[0]!.toLowerCase()).filter(Boolean));
}

/**
 * The client's options: time limits on server selection, connecting, each socket read and the wait for a pooled
 * connection, a quicker heartbeat, idle closing, and majority-journaled writes (the contract's "durable").
 */
export function mongoClientOptions(url: string, poolSize: number | undefined, timeouts: MongoTimeouts): MongoClientOptions {
  const given = urlParameters(url);
  const limits: Record<string, number> = {
    serverSelectionTimeoutMS: timeouts.serverSelectionTimeoutMs ?? MONGO_DEFAULTS.serverSelectionTimeoutMs,
    connectTimeoutMS: timeouts.connectTimeoutMs ?? MONGO_DEFAULTS.connectTimeoutMs,
    socketTimeoutMS: timeouts.socketTimeoutMs ?? MONGO_DEFAULTS.socketTimeoutMs,
    heartbeatFrequencyMS: MONGO_DEFAULTS.heartbeatFrequencyMs,
    waitQueueTimeoutMS: MONGO_DEFAULTS.waitQueueTimeoutMs,
    maxIdleTimeMS: MONGO_DEFAULTS.maxIdleTimeMs,
    maxPoolSize: poolSize ?? MONGO_DEFAULTS.poolSize,
  };
  for (const name of Object.keys(limits)) if (given.has(name.toLowerCase())) delete limits[name];
  return { appName: 'taskloom', ...limits, writeConcern: { w: 'majority', journal: true } };
}
