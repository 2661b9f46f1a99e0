import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Folders a process makes for itself in a shared place (an unpack under way, a browser profile) are named after
// their owner, `<prefix><host>-<pid>-<random>`, so a later process can tell the leftovers of one that died
// (a kill -9 runs no clean-up) from the folders of one still running.

/** A fresh name owned by this process: `<prefix><host>-<pid>-<random>`. */
export function ownedName(prefix: string): string {
  return `${prefix}${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Whether the owner part of a name (`<host>-<pid>-<random>`) is a live process: made on this host by a
 * running process other than this one (one with this process's pid was left by an earlier process given the
 * same pid, as a container's service always is: callers keep their own live folders out by `active`).
 * A folder from another host counts as alive.
 */
export function ownerIsAlive(owner: string): boolean {
  const match = /^(.*)-(\d+)-[0-9a-f]+$/.exec(owner);
  if (!match) return false;
  if (match[1] !== os.hostname()) return true;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RemoveAbandonedOptions {
  /** Full paths of this process's folders in use: never removed. */
  active?: ReadonlySet<string>;
  /** A folder older than this is removed whatever its owner (none when undefined). */
  staleAfterMs?: number;
}

/** Removes the folders named `<prefix><owner>` in `parentDir` whose owner is gone (or that are stale); resolves to their names. */
export async function removeAbandoned(parentDir: string, prefix: string, options: RemoveAbandonedOptions = {}): Promise<string[]> {
  const names = await readdir(parentDir).catch(() => [] as string[]);
  const removed = await Promise.all(names.filter((name) => name.startsWith(prefix)).map(async (name) => {
    const full = path.join(parentDir, name);
    if (options.active?.has(full)) return undefined;
    const info = await stat(full).catch(() => undefined);
    if (!info) return undefined;
    const stale = options.staleAfterMs !== undefined && Date.now() - info.mtimeMs >= options.staleAfterMs;
    if (!stale && ownerIsAlive(name.slice(prefix.length))) return undefined;
    await rm(full, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    return name;
  }));
  return removed.filter((name): name is string => name !== undefined);
}
