import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { Instance } from '../instances/decorators.js';
import { UNFINISHED } from './record-answer.js';
import type { RunChannel } from './run-channel.js';

/** How long a cancel waits for the instance running the run to stop it. */
export const CANCEL_WAIT_MS = 30_000;
const READ_EVERY_MS = 250;
/** Asked again this often: a run handed over meanwhile (taken off the queue, not yet registered) hears the next. */
const ASK_EVERY_MS = 1_000;

export interface CancelElsewhereDeps {
  store: ExecutionStore;
  channel: RunChannel;
  instance: Pick<Instance, 'live'>;
  logger: Logger;
}

/**
 * Cancels a run another instance holds (running it, or taking it off the queue): asks it through the run channel,
 * and resolves to the record once it has ended (whatever its end: the caller tells `cancelled` from the rest). A run
 * whose instance has stopped (its lease ended) is cancelled here, fenced on its claim. UPSTREAM_ERROR when nothing
 * ended it within CANCEL_WAIT_MS.
 */
export async function cancelElsewhere(deps: CancelElsewhereDeps, first: ExecutionRecord): Promise<ExecutionRecord> {
  const { store, channel, instance } = deps;
  const { executionId } = first;
  const deadline = Date.now() + CANCEL_WAIT_MS;
  let askedAt = 0;
  deps.logger.info({ executionId, instance: first.instanceId }, 'asking the instance holding the run to cancel it');
  for (let record: ExecutionRecord | null | undefined = first; ; record = await store.get(executionId).catch(() => null)) {
    if (record === undefined) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
    if (record && !UNFINISHED.includes(record.status)) return record;
    if (record?.status === 'running' && record.instanceId && !(await instance.live().catch(() => undefined))?.has(record.instanceId)) {
      const ended = await endForGone(store, record).catch(() => undefined);
      if (ended) return ended;
    }
    if (Date.now() > deadline) {
      throw Errors.UPSTREAM_ERROR({ reason: `Execution ${executionId} is held by instance ${record?.instanceId ?? '(none yet)'}, which did not stop it within ${CANCEL_WAIT_MS / 1000} s: try again` });
    }
    if (Date.now() - askedAt >= ASK_EVERY_MS) {
      askedAt = Date.now();
      channel.publish({ executionId, kind: 'cancel' });
    }
    await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS));
  }
}

/** Its instance is gone: `cancelled` here, unless the record moved on meanwhile (its claim is the fence). */
async function endForGone(store: ExecutionStore, seen: ExecutionRecord): Promise<ExecutionRecord | undefined> {
  const finishedAt = new Date().toISOString();
  const message = 'Cancelled on request (the instance running it had stopped)';
  const record = await store.update(seen.executionId, (current) => (current.status !== 'running' || current.runToken !== seen.runToken ? undefined : {
    ...current, status: 'cancelled', finishedAt, result: { data: null, captures: [], error: { message } },
    logs: [...current.logs, { at: finishedAt, level: 'warn', message: `finished: cancelled (${message})` }],
  }));
  return record && !UNFINISHED.includes(record.status) ? record : undefined;
}
