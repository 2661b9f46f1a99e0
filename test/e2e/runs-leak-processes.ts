// Counts the Chromium processes a service started, from /proc, by a marker that survives the service: every
// Chromium process (browser, renderers, utilities, its launch wrapper) names its profile folder, and the
// service keeps its profiles under DATA_DIR. Works after the service died (kill -9), when no process tree is left.
import { readdirSync, readFileSync } from 'node:fs';

export interface ChromiumProcess {
  pid: number;
  /** Process group: one per launched browser (a browser is started in a group of its own). */
  pgid: number;
  command: string;
}

/** Live (not zombie) processes whose command line mentions `dataDir`. */
export function chromiumOf(dataDir: string): ChromiumProcess[] {
  const found: ChromiumProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!args.some((arg) => arg.includes(dataDir))) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') continue;
      found.push({ pid: Number(name), pgid: Number(pgrp), command: args.filter(Boolean).join(' ').slice(0, 200) });
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** The browsers (process groups) among them. */
export function browsersOf(dataDir: string): Set<number> {
  return new Set(chromiumOf(dataDir).map((p) => p.pgid));
}

/** One line per process, for an assertion message. */
export function describeProcesses(list: ChromiumProcess[]): string {
  return list.map((p) => `  pid ${p.pid} group ${p.pgid}: ${p.command}`).join('\n') || '  (none)';
}
