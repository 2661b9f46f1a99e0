// One build of a checkout at a time: two `npm start`s after a `git pull` (two instances on one host, say) must
// not run two compilers over the same dist/ (the dashboard's build empties its folder first). The lock is a
// folder in the system's temporary directory named after the checkout, holding its owner's pid; a lock whose
// owner died is taken over.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A lock folder younger than this without its pid file is being taken right now, not abandoned. */
const FRESH_MS = 10_000;
const POLL_MS = 200;

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function ownerAlive(lock) {
  let pid;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < FRESH_MS;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Runs `build` holding the checkout's build lock; `onWait()` is called once when another build holds it. */
export function withBuildLock(root, build, onWait) {
  const lock = path.join(os.tmpdir(), `taskloom-build-${createHash('sha1').update(path.resolve(root)).digest('hex').slice(0, 16)}.lock`);
  let waited = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (!ownerAlive(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!waited) onWait();
      waited = true;
      sleep(POLL_MS);
    }
  }
  try {
    return build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
