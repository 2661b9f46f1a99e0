import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionStore, SettingsStore } from '../../kernel/contracts/storage.js';
import type { BlobStore } from '../../kernel/contracts/blob.js';
import type { Captures } from '../data/decorators.js';
import { removeResults } from '../../layers/stored-results/remove-results.js';

/** `storage.settings` key of the retention set through the API; unset: `RETENTION_DAYS` applies. */
export const RETENTION_KEY = 'retention.days';
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long executions are kept: `days` 0 is forever; `source` tells whether the API or the environment set it. */
export interface RetentionPolicy {
  days: number;
  source: 'setting' | 'environment';
}

export interface PruneReport {
  /** Execution records removed. */
  pruned: number;
  /** ISO time: executions started before it are gone; absent when retention is off. */
  cutoff?: string;
}

export interface RetentionDeps {
  executions: ExecutionStore;
  settings: SettingsStore;
  /** The data plugin's capture files: those of pruned executions go with them. */
  captures: Pick<Captures, 'removeForExecutions' | 'removeModifiedBefore'>;
  /** The blob store: the stored-apart results of pruned executions go with them (README "Large results"). */
  blob?: BlobStore;
  logger: Logger;
  /** `RETENTION_DAYS`: the policy while none is stored. */
  envDays: number;
  now?: () => number;
}

export type Retention = ReturnType<typeof createRetention>;

/** Retention without HTTP: the policy, and pruning executions with their captures. */
export function createRetention(deps: RetentionDeps) {
  const { executions, settings, captures, logger, envDays } = deps;
  const now = deps.now ?? Date.now;
  // One prune at a time: a setting change during the hourly prune waits for it, then prunes by the new policy.
  let queue: Promise<unknown> = Promise.resolve();

  async function policy(): Promise<RetentionPolicy> {
    const stored = await settings.get<number>(RETENTION_KEY);
    return typeof stored === 'number' ? { days: stored, source: 'setting' } : { days: envDays, source: 'environment' };
  }

  async function pruneNow(): Promise<PruneReport> {
    const { days } = await policy();
    if (days === 0) return { pruned: 0 };
    const cutoff = new Date(now() - days * DAY_MS).toISOString();
    const executionIds = await executions.deleteStartedBefore(cutoff);
    await removeCaptures(executionIds, cutoff);
    const line = { pruned: executionIds.length, days, cutoff };
    if (executionIds.length > 0) logger.info(line, 'pruned executions older than the retention period');
    else logger.debug(line, 'no execution is older than the retention period');
    return { pruned: executionIds.length, cutoff };
  }

  /**
   * The capture files and stored-apart results of the pruned executions, and every capture file older than the cutoff (another instance on the same
   * database may have pruned their records). A failure is logged: the records are gone either way.
   */
  async function removeCaptures(executionIds: string[], cutoff: string): Promise<void> {
    try {
      const removed = await captures.removeForExecutions(executionIds) + await captures.removeModifiedBefore(Date.parse(cutoff));
      if (removed > 0) logger.info({ captures: removed }, 'removed the capture files of pruned executions');
      // Those of records another instance pruned are no record's: the executions plugin's sweep removes them.
      const results = deps.blob ? await removeResults(deps.blob, executionIds) : 0;
      if (results > 0) logger.info({ results }, 'removed the stored-apart results of pruned executions');
    } catch (error) {
      logger.error({ err: error }, 'removing the capture files of pruned executions failed');
    }
  }

  return {
    policy,

    /** Stores `days` (0: forever), or with `null` forgets the stored value so `RETENTION_DAYS` applies again. */
    async setDays(days: number | null): Promise<RetentionPolicy> {
      if (days === null) await settings.delete(RETENTION_KEY);
      else await settings.set(RETENTION_KEY, days);
      logger.info({ days: days ?? envDays, source: days === null ? 'environment' : 'setting' }, 'retention changed');
      return policy();
    },

    /** Removes executions started longer ago than the policy allows, with their captures. */
    prune(): Promise<PruneReport> {
      const run = queue.then(pruneNow, pruneNow);
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
