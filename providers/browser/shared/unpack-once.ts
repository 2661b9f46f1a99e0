import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ownedName, removeAbandoned } from './owned-folders.js';

export interface UnpackOnceOptions {
  /** The folder holding the result (created when missing). */
  parentDir: string;
  /** The result's folder name inside `parentDir`. */
  name: string;
  /** Whether a folder already holds a complete result (checked before reusing one). */
  isComplete(dir: string): Promise<boolean>;
  /** Fills `dir` (an empty folder beside the result); a rejection leaves nothing behind. */
  unpack(dir: string): Promise<void>;
}

export interface UnpackOnceResult {
  dir: string;
  /** False when an earlier start (or a process racing this one) had already unpacked it. */
  unpacked: boolean;
}

const TEMP_PREFIX = '.unpacking-';
/** A temporary folder this old belongs to no live unpack (one takes seconds). */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** This process's unpacks under way (full paths of their temporary folders). */
const active = new Set<string>();

/**
 * Unpacks into `parentDir/name` once: later calls (and later starts) reuse it. The work happens in a temporary
 * folder beside the result, renamed into place when complete, so a crash mid-way never leaves a half result;
 * such a crash's leftover is removed by the next call. Processes racing each other each unpack into their own
 * folder: the first rename wins and the others use its result.
 */
export async function unpackOnce(options: UnpackOnceOptions): Promise<UnpackOnceResult> {
  const dir = path.join(options.parentDir, options.name);
  await mkdir(options.parentDir, { recursive: true });
  await removeStaleTemps(options.parentDir);
  if (await exists(dir)) {
    if (await options.isComplete(dir)) return { dir, unpacked: false };
    // Incomplete, so not made by this code (its rename is all or nothing): damaged by hand. Move it away.
    await discard(options.parentDir, dir);
  }
  const temp = tempName(options.parentDir);
  active.add(temp);
  try {
    await mkdir(temp);
    await options.unpack(temp);
    await rename(temp, dir);
    return { dir, unpacked: true };
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    // Another process renamed its result into place first.
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await options.isComplete(dir))) return { dir, unpacked: false };
    throw error;
  } finally {
    active.delete(temp);
  }
}

/** Removes temporary folders left by crashed unpacks: of a process that is gone, or older than an hour. */
async function removeStaleTemps(parentDir: string): Promise<void> {
  await removeAbandoned(parentDir, TEMP_PREFIX, { active, staleAfterMs: STALE_AFTER_MS });
}

function tempName(parentDir: string): string {
  return path.join(parentDir, ownedName(TEMP_PREFIX));
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

async function discard(parentDir: string, dir: string): Promise<void> {
  const aside = tempName(parentDir);
  try {
    await rename(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
}
