import type { Schedule } from '../../kernel/contracts/records.js';
import type { JobTiming } from '../../kernel/contracts/scheduler.js';
import { Errors } from '../../kernel/errors.js';

/** The fields of a Schedule that say when it fires (everything but `enabled` and the read-only fields). */
export type ScheduleTimingFields = Pick<
  Schedule,
  'frequency' | 'intervalMinutes' | 'hour' | 'minute' | 'daysOfWeek' | 'dayOfMonth' | 'cron' | 'timezone'
>;

/** A schedule turned into what the scheduler runs, plus the cron string shown to users (null: see below). */
export interface ResolvedTiming {
  timing: JobTiming;
  /** The five-field cron the schedule stands for; null for an interval no cron can express (e.g. 7 minutes). */
  cron: string | null;
}

const invalid = (reason: string) => Errors.INVALID_SCHEDULE({ reason });

function inRange(name: string, value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function knownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Intervals as cron where a cron fires evenly: N dividing 60 (`*\/N * * * *`), or whole hours dividing 24
 * (`0 *\/H * * *`), both on the wall clock of the schedule's time zone. A step cron restarts at every hour (or
 * day), so `*\/7` would fire at :56 and again at :00: any other N is an elapsed-time series instead, every N
 * minutes counted from 1970-01-01T00:00Z (the same series after a restart), with no cron string.
 */
function intervalTiming(minutes: number | undefined, timezone: string | undefined): ResolvedTiming {
  if (minutes === undefined) throw invalid('intervalMinutes is required when frequency is interval');
  const n = inRange('intervalMinutes', minutes, 1, 1440, 0);
  let cron: string | null = null;
  if (n === 1) cron = '* * * * *';
  else if (60 % n === 0) cron = n === 60 ? '0 * * * *' : `*/${n} * * * *`;
  else if (n % 60 === 0 && 24 % (n / 60) === 0) cron = n === 1440 ? '0 0 * * *' : `0 */${n / 60} * * *`;
  if (cron === null) return { timing: { intervalMinutes: n }, cron };
  return { timing: timezone ? { cron, timezone } : { cron }, cron };
}

function frequencyCron(schedule: ScheduleTimingFields): string {
  const minute = inRange('minute', schedule.minute, 0, 59, 0);
  const hour = () => inRange('hour', schedule.hour, 0, 23, 0);
  switch (schedule.frequency) {
    case 'hourly':
      return `${minute} * * * *`;
    case 'daily':
      return `${minute} ${hour()} * * *`;
    case 'weekly': {
      const days = schedule.daysOfWeek;
      if (days === undefined) throw invalid('daysOfWeek is required when frequency is weekly (0 is Sunday, 6 Saturday)');
      if (days.length === 0) throw invalid('daysOfWeek must name at least one day (0 is Sunday, 6 Saturday)');
      for (const day of days) inRange('each of daysOfWeek', day, 0, 6, 0);
      return `${minute} ${hour()} * * ${[...new Set(days)].sort((a, b) => a - b).join(',')}`;
    }
    case 'monthly': {
      if (schedule.dayOfMonth === undefined) throw invalid('dayOfMonth (1 to 31) is required when frequency is monthly');
      // Months without that day are skipped (croner and cron alike); the description says so.
      return `${minute} ${hour()} ${inRange('dayOfMonth', schedule.dayOfMonth, 1, 31, 1)} * *`;
    }
    default:
      throw invalid('frequency (interval, hourly, daily, weekly or monthly) or cron is required');
  }
}

/**
 * Every field given must be in its range, also those a cron overrides: what is stored is a Schedule record, which
 * every answer must be able to show.
 */
function checkRanges(schedule: ScheduleTimingFields): void {
  inRange('intervalMinutes', schedule.intervalMinutes, 1, 1440, 0);
  inRange('hour', schedule.hour, 0, 23, 0);
  inRange('minute', schedule.minute, 0, 59, 0);
  for (const day of schedule.daysOfWeek ?? []) inRange('each of daysOfWeek', day, 0, 6, 0);
  inRange('dayOfMonth', schedule.dayOfMonth, 1, 31, 1);
}

/**
 * What a schedule means, checked field by field; throws INVALID_SCHEDULE with the reason. A non-blank `cron`
 * wins over the frequency fields ("full control"). Missing `hour` or `minute` mean 0. The cron's own syntax is
 * the scheduler's to judge (`Scheduler.upcoming`), except the five-field rule of the API. `pinnedZone` is the zone
 * pinned for a schedule saved without `timezone` (layers/schedule-zones/schedule-zones.ts): its timing is read in that zone.
 */
export function resolveTiming(schedule: ScheduleTimingFields, pinnedZone?: string): ResolvedTiming {
  checkRanges(schedule);
  if (schedule.timezone !== undefined && !knownTimezone(schedule.timezone)) {
    throw invalid(`timezone "${schedule.timezone}" is not a known IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
  }
  const timezone = schedule.timezone ?? pinnedZone;
  const raw = schedule.cron?.trim();
  if (raw) {
    const fields = raw.split(/\s+/);
    if (fields.length !== 5) {
      throw invalid(`cron "${raw}" has ${fields.length} field(s); it needs five: minute hour day-of-month month day-of-week`);
    }
    const cron = fields.join(' ');
    return { timing: timezone ? { cron, timezone } : { cron }, cron };
  }
  if (schedule.frequency === 'interval') return intervalTiming(schedule.intervalMinutes, timezone);
  const cron = frequencyCron(schedule);
  return { timing: timezone ? { cron, timezone } : { cron }, cron };
}

/** True when two timings fire at the same times. */
export function sameTiming(a: JobTiming, b: JobTiming): boolean {
  if ('intervalMinutes' in a || 'intervalMinutes' in b) {
    return 'intervalMinutes' in a && 'intervalMinutes' in b && a.intervalMinutes === b.intervalMinutes;
  }
  return a.cron === b.cron && a.timezone === b.timezone;
}
