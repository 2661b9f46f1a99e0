import fs from 'node:fs';
import os from 'node:os';

/** Busy and total jiffies of every CPU so far (/proc/stat's first line; idle and iowait count as not busy). */
function cpuTicks(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

/**
 * How many cores the whole machine kept busy between `start()` and `stop()`: what a phase of the bench costs,
 * the browser's processes included. With `cores` available, work that keeps `u` busy one run at a time can go
 * at most `cores / u` times faster in parallel.
 */
export function machineUsage(): { stop(): number } {
  const before = cpuTicks();
  return {
    stop() {
      const after = cpuTicks();
      return ((after.busy - before.busy) / Math.max(1, after.total - before.total)) * os.cpus().length;
    },
  };
}
