// Looks at Chromium processes through /proc, to prove none outlives a run or a pool.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Processes of process group `pgid` that still run (zombies, already dead, are left out). */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "pid (comm)": state, ppid, pgrp, ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
    } catch {
      // Ended while we looked.
    }
  }
  return members;
}

/** The `--user-data-dir` a Chromium process was started with. */
export function profileDirOf(pid: number): string | undefined {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
