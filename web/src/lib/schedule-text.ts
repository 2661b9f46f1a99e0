import type { Schedule } from '../api/types';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** A short local summary for lists; the server's `describe` gives the authoritative wording. */
export function scheduleSummary(schedule: Schedule | undefined): string {
  if (!schedule || !schedule.enabled) return 'Off';
  if (schedule.cron && !schedule.frequency) return `cron ${schedule.cron}`;
  const time = `${pad(schedule.hour)}:${pad(schedule.minute)}`;
  switch (schedule.frequency) {
    case 'interval': return `Every ${schedule.intervalMinutes ?? '?'} min`;
    case 'hourly': return `Hourly at :${pad(schedule.minute)}`;
    case 'daily': return `Daily at ${time}`;
    case 'weekly': return `Weekly (${(schedule.daysOfWeek ?? []).map((d) => DAY_NAMES[d]?.slice(0, 3)).join(', ') || 'no day'}) at ${time}`;
    case 'monthly': return `Monthly on day ${schedule.dayOfMonth ?? 1} at ${time}`;
    default: return schedule.cron ? `cron ${schedule.cron}` : 'On';
  }
}
