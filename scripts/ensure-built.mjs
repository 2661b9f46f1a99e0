#!/usr/bin/env node
// `npm start` (and `npm install`, through `prepare`) runs this first: it rebuilds the server (dist/) and the
// dashboard (web/dist) only when what they are built from changed since their last successful build, so a
// start with nothing changed costs a hash of the sources instead of a compile.
//
//   node scripts/ensure-built.mjs [server] [web] [--check] [--warn-only]
//
// Targets default to both. A failed build exits 1 after the compiler's own message: never a stale start.
// `--check` builds nothing: it says what is out of date and exits 1 if anything is. `--warn-only` (the
// `prepare` script) reports a failed build and exits 0, so `npm install` still installs (without the
// devDependencies, say) and `npm start` tries again, strictly.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedInputs, collectInputs } from './build-inputs.mjs';
import { withBuildLock } from './build-lock.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written last, after a build succeeded: the inputs that build was made from. */
const STAMP = '.build-inputs.json';
const PROJECT_FILES = ['package.json', 'package-lock.json'];

/** The folders tsconfig.build.json compiles (its `include`). */
function serverDirs() {
  const config = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8'));
  return config.include ?? [];
}

const TARGETS = {
  server: {
    label: 'the server',
    npmScript: 'build',
    outDir: 'dist',
    inputs: () => ({ dirs: serverDirs(), files: ['tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-vendor.mjs', 'scripts/copy-build-assets.mjs', ...PROJECT_FILES] }),
    // Every source has its compiled file: a partly deleted dist/ is rebuilt too.
    missingOutput: (inputs) => Object.keys(inputs)
      .filter((file) => /\.(?:m?ts|tsx)$/.test(file) && !file.endsWith('.d.ts'))
      .map((file) => `dist/${file.replace(/\.(m?)tsx?$/, '.$1js')}`)
      .find((file) => !existsSync(path.join(ROOT, file))),
  },
  web: {
    label: 'the dashboard',
    npmScript: 'build:web',
    outDir: 'web/dist',
    inputs: () => ({ dirs: ['web/src'], files: ['web/index.html', 'web/vite.config.ts', 'web/tsconfig.json', ...PROJECT_FILES] }),
    missingOutput: () => (existsSync(path.join(ROOT, 'web/dist/index.html')) ? undefined : 'web/dist/index.html'),
  },
};

const say = (line) => process.stderr.write(`taskloom: ${line}\n`);

function readStamp(target) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, target.outDir, STAMP), 'utf8')).inputs;
  } catch {
    return undefined;
  }
}

/** Why `target` must be built, or undefined when its output matches its inputs. */
function staleness(target, inputs) {
  const before = readStamp(target);
  if (!before) return existsSync(path.join(ROOT, target.outDir)) ? 'no finished build is recorded' : 'not built yet';
  const changed = changedInputs(before, inputs);
  if (changed.length > 0) {
    const more = changed.length > 1 ? ` and ${changed.length - 1} more file${changed.length > 2 ? 's' : ''}` : '';
    return `${changed[0]}${more} changed since the last build`;
  }
  const missing = target.missingOutput(inputs);
  return missing ? `${missing} is missing` : undefined;
}

/** `npm run <script>` with the npm that runs us when there is one. */
function runNpmScript(script) {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && /\.c?js$/.test(npmCli)
    ? [process.execPath, [npmCli, 'run', script, '--silent']]
    : ['npm', ['run', script, '--silent']];
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) say(`could not run npm run ${script}: ${result.error.message}`);
  return result.status === 0;
}

function ensure(name, checkOnly) {
  const target = TARGETS[name];
  const reason = staleness(target, collectInputs(ROOT, target.inputs()));
  if (!reason) {
    if (checkOnly) process.stdout.write(`${name}: up to date\n`);
    return true;
  }
  if (checkOnly) {
    process.stdout.write(`${name}: out of date (${reason})\n`);
    return false;
  }
  // Decided again under the lock: a build that held it may have just done this one.
  return withBuildLock(ROOT, () => build(target), () => say('waiting for another build of this checkout to finish'));
}

function build(target) {
  const inputs = collectInputs(ROOT, target.inputs());
  const reason = staleness(target, inputs);
  if (!reason) return true;
  say(`building ${target.label}: ${reason}`);
  // Gone before the build starts, so a failed or interrupted build never passes for a finished one.
  rmSync(path.join(ROOT, target.outDir, STAMP), { force: true });
  if (!runNpmScript(target.npmScript)) {
    say(`building ${target.label} failed (the compiler's message is above); ${warnOnly ? 'npm start will build it again' : 'nothing was started'}`);
    return false;
  }
  // The inputs as read before the build: a file edited during it makes the next start build again.
  writeFileSync(path.join(ROOT, target.outDir, STAMP), `${JSON.stringify({ inputs }, null, 1)}\n`);
  return true;
}

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const warnOnly = args.includes('--warn-only');
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = [
  ...names.filter((name) => !(name in TARGETS)),
  ...args.filter((arg) => arg.startsWith('--') && arg !== '--check' && arg !== '--warn-only'),
];
if (unknown.length > 0) {
  say(`unknown argument ${unknown.join(', ')}: use ${Object.keys(TARGETS).join(', ')}, --check or --warn-only`);
  process.exit(2);
}
let ok = true;
for (const name of names.length > 0 ? names : Object.keys(TARGETS)) {
  ok = ensure(name, checkOnly) && ok;
  if (!ok && !checkOnly) break;
}
process.exit(ok || (warnOnly && !checkOnly) ? 0 : 1);
