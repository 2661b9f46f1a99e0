// scripts/bundle-vendor.mjs (the last step of `npm run build`) in a project of its own: compiled files under
// dist/ load the bundled TypeBox (a handful of files instead of hundreds), its entry points share one copy, and a
// schema made by node_modules' TypeBox validates with the bundled one (sources and third parties use that one).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = process.cwd();
let dir = '';

const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskloom-bundle-vendor-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(REPO, 'scripts/bundle-vendor.mjs'), path.join(dir, 'scripts/bundle-vendor.mjs'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bundle-vendor-fixture', type: 'module' }));
  fs.mkdirSync(path.join(dir, 'dist/kernel'), { recursive: true });
  // As tsc emits them: bare `typebox` imports, one of them dynamic.
  fs.writeFileSync(path.join(dir, 'dist/kernel/probe.js'), `
import { Type } from 'typebox';
import { Type as SourceType } from '../../node_modules/typebox/build/index.mjs';
const { Compile } = await import('typebox/compile');
const bundled = Type.Object({ name: Type.String() }, { additionalProperties: false });
const fromSources = SourceType.Object({ count: SourceType.Integer({ minimum: 1 }) });
console.log(JSON.stringify({
  typebox: import.meta.resolve('typebox'),
  compile: import.meta.resolve('typebox/compile'),
  bundledChecks: [Compile(bundled).Check({ name: 'a' }), Compile(bundled).Check({ name: 1 }), Compile(bundled).Check({ name: 'a', x: 1 })],
  sourceChecks: [Compile(fromSources).Check({ count: 2 }), Compile(fromSources).Check({ count: 0 })],
}));
`);
});

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('bundle-vendor', () => {
  it('bundles every TypeBox entry point into dist/node_modules/typebox with its export map', () => {
    const result = node(['scripts/bundle-vendor.mjs']);
    assert.equal(result.status, 0, result.stderr);
    const source = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules/typebox/package.json'), 'utf8'));
    const bundled = JSON.parse(fs.readFileSync(path.join(dir, 'dist/node_modules/typebox/package.json'), 'utf8'));
    assert.equal(bundled.version, source.version);
    assert.deepEqual(Object.keys(bundled.exports).sort(), Object.keys(source.exports).sort());
    const files = fs.readdirSync(path.join(dir, 'dist/node_modules/typebox')).filter((f) => f.endsWith('.js'));
    assert.ok(files.length < 40, `a few bundles, not TypeBox's hundreds of modules (${files.length})`);
    assert.ok(fs.existsSync(path.join(dir, 'dist/node_modules/typebox/LICENSE')));
  });

  it('compiled files resolve TypeBox to the bundle, and either copy validates the other\'s schemas', () => {
    const result = node(['dist/kernel/probe.js']);
    assert.equal(result.status, 0, result.stderr);
    const probe = JSON.parse(result.stdout);
    assert.ok(probe.typebox.endsWith('/dist/node_modules/typebox/index.js'), probe.typebox);
    assert.ok(probe.compile.endsWith('/dist/node_modules/typebox/compile.js'), probe.compile);
    assert.deepEqual(probe.bundledChecks, [true, false, false]);
    assert.deepEqual(probe.sourceChecks, [true, false]);
  });

  it('running it again gives the same bundle (a rebuild starts from a clean folder)', () => {
    const before = fs.readdirSync(path.join(dir, 'dist/node_modules/typebox')).sort();
    fs.writeFileSync(path.join(dir, 'dist/node_modules/typebox/stale.js'), '');
    const result = node(['scripts/bundle-vendor.mjs']);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'dist/node_modules/typebox')).sort(), before);
  });
});
