#!/usr/bin/env node
// `taskloom` starts the service from the compiled build (`npm run build` makes dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/kernel/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('taskloom is not built yet: run `npm run build` first (or `npm start`)\n');
  process.exit(1);
}
await import(main.href);
