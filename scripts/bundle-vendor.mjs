#!/usr/bin/env node
// The last step of `npm run build`. TypeBox ships as some 700 small ES modules and Node loads ES modules file by
// file: that was the largest part of the service's start-up. This bundles each of TypeBox's entry points into
// dist/node_modules/typebox (one file each, shared code in common chunks, so the entries share one TypeBox),
// with TypeBox's own export map: Node's resolution finds it first for every compiled file under dist/, and
// nothing in dist/ is rewritten. Sources, tests, `npm run dev` and third-party modules keep node_modules'
// TypeBox; its schemas are plain JSON Schema objects, so a schema made by either copy validates with the other.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist', 'node_modules', 'typebox');

/** TypeBox's folder in node_modules (its export map does not export its package.json). */
function packageDir(name) {
  let dir = path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve(name));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}
const source = packageDir('typebox');
const manifest = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
/** `.` -> `index`, `./compile` -> `compile`: one bundle per export of TypeBox's package. */
const entries = Object.keys(manifest.exports).filter((key) => key.startsWith('.') && !key.includes('*'));
const nameOf = (key) => (key === '.' ? 'index' : key.slice(2).replace(/\//g, '-'));

rmSync(OUT, { recursive: true, force: true });
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // dist works as tsc left it, with node_modules' TypeBox; only its start-up is slower.
  process.stderr.write('taskloom: esbuild is not installed: TypeBox is not bundled (the service starts slower)\n');
  process.exit(0);
}
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: Object.fromEntries(entries.map((key) => [nameOf(key), key === '.' ? 'typebox' : `typebox/${key.slice(2)}`])),
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify({
  name: 'typebox',
  version: manifest.version,
  description: 'TypeBox bundled by scripts/bundle-vendor.mjs for the compiled service (see there)',
  license: manifest.license,
  type: 'module',
  exports: Object.fromEntries(entries.map((key) => [key, `./${nameOf(key)}.js`])),
}, null, 2)}\n`);
const license = ['license', 'LICENSE', 'license.md', 'LICENSE.md'].map((name) => path.join(source, name)).find(existsSync);
if (license) writeFileSync(path.join(OUT, 'LICENSE'), readFileSync(license));
