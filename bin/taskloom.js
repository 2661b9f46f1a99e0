#!/usr/bin/env node
// `taskloom [command]` runs the compiled CLI (`npm run build` makes dist/); without a command it starts the service.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('taskloom is not built yet: run `npm run build` first (or `npm start`)\n');
  process.exit(1);
}
const { cliMain } = await import(cli.href);
await cliMain(process.argv.slice(2));
