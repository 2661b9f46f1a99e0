import { Cron } from 'croner';
import type { JobTiming } from '../../../kernel/contracts/scheduler.js';
import { Errors } from '../../../kernel/errors.js';

const MINUTE_MS = 60_000;
const MAX_COUNT = 100;

const invalid = (reason: string) => Errors.INVALID_SCHEDULE({ reason });

/** A function from "after this instant" to the next fire strictly after it, or null when there is none. */
export type NextFire = (afterMs: number) => number | null;

/** True when the runtime knows `timezone` as an IANA name (the same check croner relies on). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Recently used cron patterns by text and zone, most recent last. A compiled croner pattern holds about 80 KB, so
 * jobs do not keep one each: 1,000 distinct crons would pin 80 MB. Parsing one again costs about 50 µs, once per
 * fire, off the firing path; the common patterns stay here.
 */
const recentCrons = new Map<string, NextFire>();
const MAX_RECENT = 64;

/**
 * Compiles a timing; the result answers "next fire after t". Croner is the one authority for cron times (bree's
 * own cron engine, later.js, disagrees with it: see ../bree/README.md). Throws INVALID_SCHEDULE.
 */
export function compileTiming(timing: JobTiming): NextFire {
  if ('intervalMinutes' in timing) return compileInterval(timing.intervalMinutes);
  const cacheKey = `${timing.cron}\u0000${timing.timezone ?? ''}`;
  let next = recentCrons.get(cacheKey);
  if (next) recentCrons.delete(cacheKey);
  else next = compileCron(timing.cron, timing.timezone);
  recentCrons.set(cacheKey, next);
  if (recentCrons.size > MAX_RECENT) recentCrons.delete(recentCrons.keys().next().value!);
  return next;
}

/** The next fire of `timing` strictly after `afterMs`, or null when there is none. Throws INVALID_SCHEDULE. */
export const nextFireOf = (timing: JobTiming, afterMs: number): number | null => compileTiming(timing)(afterMs);

function compileInterval(minutes: number): NextFire {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) {
    throw invalid(`intervalMinutes must be a whole number from 1 to 1440, got ${String(minutes)}`);
  }
  const period = minutes * MINUTE_MS;
  // Multiples of the period since the epoch: the same series on every restart and every instance.
  return (afterMs) => Math.floor(afterMs / period) * period + period;
}

function compileCron(cron: string, timezone: string | undefined): NextFire {
  if (typeof cron !== 'string' || cron.trim().split(/\s+/).length !== 5) {
    throw invalid(`cron "${String(cron)}" must have five fields: minute hour day-of-month month day-of-week`);
  }
  if (timezone !== undefined && !isKnownTimezone(timezone)) {
    throw invalid(`timezone "${timezone}" is not a known IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
  }
  let pattern: Cron;
  try {
    // `paused` and no callback: croner only computes, it never arms a timer of its own here.
    pattern = new Cron(cron.trim(), { mode: '5-part', timezone, paused: true });
  } catch (error) {
    const detail = (error as Error).message.replace(/^CronPattern:\s*/, '');
    throw invalid(`cron "${cron}" is invalid: ${detail}`);
  }
  // `nextRun(from)` of a paused pattern depends on `from` alone, so one instance serves every job that shares it.
  return (afterMs) => pattern.nextRun(new Date(afterMs))?.getTime() ?? null;
}

/** The next `count` fire times strictly after `afterMs`; INVALID_SCHEDULE when there is not even one. */
export function upcomingFires(next: NextFire, afterMs: number, count = 1): number[] {
  const wanted = Math.min(Math.max(1, Math.floor(count)), MAX_COUNT);
  const fires: number[] = [];
  let from = afterMs;
  while (fires.length < wanted) {
    const at = next(from);
    if (at === null) break;
    fires.push(at);
    from = at;
  }
  if (fires.length === 0) throw invalid('the schedule never fires (no matching date exists)');
  return fires;
}
