import type { IndexDescription } from 'mongodb';

/**
 * The indexes of every collection, created (idempotently) at start-up. Documents of users,
 * sessions, tasks and credentials carry `seq` for insertion order; executions are read newest
 * first with `seq` breaking ties, and each filter the history offers has its own index.
 */
export const INDEXES: Readonly<Record<string, IndexDescription[]>> = {
  users: [
    { key: { seq: 1 }, name: 'seq' },
    // Only users that have an email are indexed, so several without one do not collide.
    { key: { emailLower: 1 }, name: 'emailLower_unique', unique: true, partialFilterExpression: { emailLower: { $type: 'string' } } },
  ],
  sessions: [
    { key: { seq: 1 }, name: 'seq' },
    { key: { expiresAtMs: 1 }, name: 'expiresAtMs' },
  ],
  tasks: [{ key: { seq: 1 }, name: 'seq' }],
  credentials: [{ key: { seq: 1 }, name: 'seq' }],
  healing: [{ key: { seq: 1 }, name: 'seq' }],
  browser_states: [{ key: { seq: 1 }, name: 'seq' }],
  executions: [
    { key: { startedAt: -1, seq: -1 }, name: 'startedAt' },
    { key: { status: 1, startedAt: -1, seq: -1 }, name: 'status_startedAt' },
    { key: { taskId: 1, startedAt: -1, seq: -1 }, name: 'taskId_startedAt' },
  ],
  // Webhook deliveries: the senders' look-up of due ones, and the log newest first.
  deliveries: [
    { key: { status: 1, nextAttemptMs: 1 }, name: 'status_nextAttemptMs' },
    { key: { createdAt: -1, seq: -1 }, name: 'createdAt' },
  ],
  // Task imports staged for an all-or-nothing write (batch-write.ts), read back in order.
  batch_docs: [{ key: { batch: 1, i: 1 }, name: 'batch_i' }],
  batches: [{ key: { collection: 1 }, name: 'collection' }],
  // The server drops expired claims by itself (about once a minute); claim() never relies on it.
  claims: [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }],
  // Likewise expired counts (login limits); add() reads an expired one as none.
  expiring_counts: [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }],
};
