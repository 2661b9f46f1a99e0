import type { Schedule } from '../../kernel/contracts/records.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';

// The time zone of a schedule saved without one, pinned when it is saved, so every instance reads its cron in the
// same zone (instances with different TZ would otherwise fire a daily schedule at two different instants, and run
// it twice). Kept beside the schedule rather than in it: the API answers schedules as they were sent (no zone
// added to them or to their descriptions), and a task saved again unchanged stays unchanged. Written by the paths
// that save schedules (the schedules and tasks plugins) and, for schedules stored without a pin (older versions,
// direct writes), by the schedules plugin's sync. Never read from the process at fire time.

/** The settings key of the map `{ [taskId]: PinnedZone }`. */
export const SCHEDULE_ZONES_KEY = 'scheduleZones';

export interface PinnedZone {
  /** IANA name: the zone in effect for the instance that pinned it. */
  zone: string;
  /** The timing fields it was pinned for (`timingFingerprint`): a schedule changed since gets a new pin. */
  timing: string;
  /** ISO 8601, when it was pinned. */
  pinnedAt: string;
}

export type PinnedZones = Record<string, PinnedZone>;

type TimingFields = Pick<Schedule, 'frequency' | 'intervalMinutes' | 'hour' | 'minute' | 'daysOfWeek' | 'dayOfMonth' | 'cron'>;

/** The fields that say when a schedule fires, but its zone, as one string. */
export function timingFingerprint(schedule: TimingFields): string {
  const { frequency, intervalMinutes, hour, minute, daysOfWeek, dayOfMonth } = schedule;
  return JSON.stringify([frequency, intervalMinutes, hour, minute, daysOfWeek, dayOfMonth, schedule.cron?.trim() || undefined]);
}

/** The zone in effect for this process now (TZ, else the system's), as an IANA name. */
export function processZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The pinned zone of the task's schedule, when one was pinned for its present timing. */
export function pinnedZoneOf(pins: PinnedZones | undefined, taskId: string, schedule: TimingFields): string | undefined {
  const pin = pins?.[taskId];
  return pin && pin.timing === timingFingerprint(schedule) ? pin.zone : undefined;
}

export async function readPinnedZones(settings: SettingsStore): Promise<PinnedZones> {
  return (await settings.get<PinnedZones>(SCHEDULE_ZONES_KEY)) ?? {};
}

/**
 * Pins `zone` for every schedule given that has no `timezone` and no pin for its present timing, in one atomic
 * write (the first instance to pin a schedule wins; a pin already there for the same timing is kept, so saving a
 * schedule again unchanged never moves it). A schedule with its own `timezone` needs none: its pin is dropped.
 * Writes nothing when nothing changes. Resolves to the map as stored.
 */
export async function pinScheduleZones(
  settings: SettingsStore,
  schedules: ReadonlyArray<{ taskId: string; schedule: TimingFields & { timezone?: string } }>,
  zone: string = processZone(),
): Promise<PinnedZones> {
  const changes = (pins: PinnedZones | undefined) => schedules.filter(({ taskId, schedule }) =>
    schedule.timezone ? pins?.[taskId] !== undefined : pinnedZoneOf(pins, taskId, schedule) === undefined);
  const current = await readPinnedZones(settings);
  if (changes(current).length === 0) return current;
  return settings.update<PinnedZones>(SCHEDULE_ZONES_KEY, (stored) => {
    const next: PinnedZones = { ...stored };
    const pinnedAt = new Date().toISOString();
    for (const { taskId, schedule } of changes(stored)) {
      if (schedule.timezone) delete next[taskId];
      else next[taskId] = { zone, timing: timingFingerprint(schedule), pinnedAt };
    }
    return next;
  });
}

/** Drops the pins of tasks that no longer exist, pinned before `olderThan` (ISO 8601): a pin just written stays. */
export async function dropStalePins(settings: SettingsStore, existing: ReadonlySet<string>, olderThan: string): Promise<void> {
  const stale = (pins: PinnedZones | undefined) =>
    Object.entries(pins ?? {}).filter(([taskId, pin]) => !existing.has(taskId) && pin.pinnedAt < olderThan).map(([taskId]) => taskId);
  if (stale(await readPinnedZones(settings)).length === 0) return;
  await settings.update<PinnedZones>(SCHEDULE_ZONES_KEY, (stored) => {
    const next: PinnedZones = { ...stored };
    for (const taskId of stale(stored)) delete next[taskId];
    return next;
  });
}
