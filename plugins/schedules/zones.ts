import type { Schedule } from '../../kernel/contracts/records.js';
import type { Scheduler } from '../../kernel/contracts/scheduler.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import {
  dropStalePins, pinScheduleZones, pinnedZoneOf, processZone, readPinnedZones, type PinnedZones,
} from '../../layers/schedule-zones/schedule-zones.js';

/** A pin of a task that no longer exists is dropped this long after it was written. */
const STALE_PIN_MS = 10 * 60_000;

/**
 * The zones pinned for schedules saved without `timezone` (layers/schedule-zones/schedule-zones.ts), as the schedules plugin uses
 * them. A scheduler without the `timezones` capability gets no zone (it reads crons in its process's zone, as
 * before pins existed).
 */
export function createZones(deps: { storage: StorageProvider; scheduler: Scheduler }) {
  const { settings } = deps.storage;
  const applies = deps.scheduler.capabilities.timezones;
  // A scheduler whose fires never leave this process (bree) may be handed a pin equal to this process's zone as
  // "the process's zone": the same instants, and the jobs read as they always did. Fires shared through an engine
  // travel to processes in other zones, so their zone is always spelled out.
  const implicit = deps.scheduler.capabilities.sharedFires ? undefined : processZone();
  const forJob = (zone: string | undefined) => (zone === implicit ? undefined : zone);

  return {
    /** Pins the saved schedule's zone (unless one is pinned for the same timing) and resolves to the job's zone. */
    async pin(taskId: string, schedule: Schedule): Promise<string | undefined> {
      if (!applies) return undefined;
      const pins = await pinScheduleZones(settings, [{ taskId, schedule }]);
      return schedule.timezone ? undefined : forJob(pinnedZoneOf(pins, taskId, schedule));
    },

    /** Pins, in one write, every schedule given that lacks a pin (the sync); resolves to each one's job zone. */
    async pinAll(schedules: Array<{ taskId: string; schedule: Schedule }>): Promise<(taskId: string, schedule: Schedule) => string | undefined> {
      if (!applies) return () => undefined;
      const pins: PinnedZones = await pinScheduleZones(settings, schedules);
      return (taskId, schedule) => (schedule.timezone ? undefined : forJob(pinnedZoneOf(pins, taskId, schedule)));
    },

    /** Forgets the pins of deleted tasks, once they are old enough that no save is still under way. */
    async dropStale(taskIds: ReadonlySet<string>): Promise<void> {
      if (applies) await dropStalePins(settings, taskIds, new Date(Date.now() - STALE_PIN_MS).toISOString());
    },

    /** The job zone of a stored schedule now: its pin, else `fallback` (the job's own), never read from the process. */
    async of(taskId: string, schedule: Schedule, fallback: string | undefined): Promise<string | undefined> {
      if (!applies || schedule.timezone) return undefined;
      const pinned = pinnedZoneOf(await readPinnedZones(settings), taskId, schedule);
      return pinned === undefined ? fallback : forJob(pinned);
    },

    /** The zone a schedule would get if it were saved now on this instance (for `describe`). */
    async ifSavedNow(taskId: string, schedule: Schedule): Promise<string | undefined> {
      if (!applies || schedule.timezone) return undefined;
      return pinnedZoneOf(await readPinnedZones(settings), taskId, schedule) ?? processZone();
    },
  };
}

export type Zones = ReturnType<typeof createZones>;
