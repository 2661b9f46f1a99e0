#!/usr/bin/env node
// A step of `npm run build`: copies the files the compiled code reads beside itself and tsc does not emit (the
// fixture pages of the browser contract suite, testing/browser/pages) into dist/, at the same place.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ASSET_DIRS = ['testing/browser/pages'];

for (const dir of ASSET_DIRS) {
  const target = path.join(ROOT, 'dist', dir);
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(ROOT, dir), target, { recursive: true });
}
