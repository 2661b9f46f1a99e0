import path from 'node:path';
import { Errors } from '../../../kernel/errors.js';

/**
 * Directories open in this process. Two stores on one directory would interleave their journals
 * and corrupt them, so the second open is refused. (Node has no portable file lock, so this does
 * not stop a second process: run one taskloom per data directory.)
 */
const open = new Set<string>();

/** Marks `dir` as open; returns the function that releases it. */
export function claimDir(dir: string): () => void {
  const key = path.resolve(dir);
  if (open.has(key)) {
    throw Errors.STORAGE_UNAVAILABLE({ reason: `the json store at ${key} is already open in this process; close it before opening it again` });
  }
  open.add(key);
  return () => {
    open.delete(key);
  };
}
