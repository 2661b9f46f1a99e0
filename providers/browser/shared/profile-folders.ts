import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ownedName, removeAbandoned } from './owned-folders.js';

// Each launched Chromium gets a throw-away profile, removed when it exits. A service killed with -9 removes
// nothing: its profiles are named after it (owned-folders.ts) so the next start removes them.

const PROFILES = 'browser-profiles';
const PREFIX = 'chromium-';
/** Without a data directory (a driver made outside the service): the system's temporary folder. */
const TEMP_PREFIX = 'taskloom-chromium-';

const cleaned = new Map<string, Promise<string[]>>();

/** Where the profiles of browsers launched with this data directory go: DATA_DIR/browser-profiles. */
export function profilesDir(dataDir: string): string {
  return path.join(path.resolve(dataDir), PROFILES);
}

/**
 * Removes the profiles left by processes that are gone, once per process and folder (later calls share the
 * first one's work). Folders of live services sharing the data directory stay. Resolves to the names removed.
 */
export function removeLeftoverProfiles(dataDir: string): Promise<string[]> {
  const dir = profilesDir(dataDir);
  let done = cleaned.get(dir);
  if (!done) {
    done = removeAbandoned(dir, PREFIX).catch(() => []);
    cleaned.set(dir, done);
  }
  return done;
}

/** A new empty profile folder (mode 0700) owned by this process, after the leftovers of earlier ones are removed. */
export async function makeProfileDir(dataDir: string | undefined): Promise<string> {
  if (dataDir === undefined) {
    const dir = path.join(os.tmpdir(), ownedName(TEMP_PREFIX));
    await mkdir(dir, { mode: 0o700 });
    return dir;
  }
  await removeLeftoverProfiles(dataDir);
  const parent = profilesDir(dataDir);
  await mkdir(parent, { recursive: true });
  const dir = path.join(parent, ownedName(PREFIX));
  await mkdir(dir, { mode: 0o700 });
  return dir;
}
