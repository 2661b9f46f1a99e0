import cronstrue from 'cronstrue';
import type { ResolvedTiming, ScheduleTimingFields } from './resolve.js';

/**
 * Plain English for a resolved schedule ("At 09:00, only on Monday"), with the time zone when the schedule names
 * one. An interval without a cron says what it counts from; a monthly day past 28 says months without it are
 * skipped, since that surprises people.
 */
export function describeTiming(resolved: ResolvedTiming, schedule: ScheduleTimingFields): string {
  const { timing, cron } = resolved;
  if (cron === null && 'intervalMinutes' in timing) {
    return `Every ${timing.intervalMinutes} minutes (counted from 00:00 UTC)`;
  }
  let text: string;
  try {
    text = cronstrue.toString(cron ?? '', { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    // cronstrue reads a little less than croner does; the expression itself is still the truth.
    text = `On cron schedule "${cron}"`;
  }
  const usesFrequency = !schedule.cron?.trim();
  if (usesFrequency && schedule.frequency === 'monthly' && (schedule.dayOfMonth ?? 0) > 28) {
    text += ` (skipped in months without day ${schedule.dayOfMonth})`;
  }
  // Only a zone the schedule names: one pinned for it (layers/schedule-zones/schedule-zones.ts) is not shown.
  if ('cron' in timing && schedule.timezone) text += ` (${schedule.timezone})`;
  return text;
}
