// What a third party sees is designed, not leaked: the contracts import only each other, each version is defined
// once, the shipped suites import only what ships, and the tarball holds the exported entries with their .d.ts
// and nothing from the repository's tests or sources. (test/e2e/third-party-package.test.ts installs and uses it.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"\n]+)['"]/g;

/** Every .ts file under `dir`, relative to the checkout. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative('.', path.join(entry.parentPath, entry.name)));
}

/** The modules `file` imports (line comments left out: they may show a third party's import). */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '').matchAll(IMPORT)].map((match) => match[1]!);

describe('the published API', () => {
  it('a contract imports only other contracts (and TypeBox, for the records; the types of Node itself)', () => {
    for (const file of sources('kernel/contracts')) {
      for (const specifier of importsOf(file)) {
        const allowed = /^\.\/[a-z-]+\.js$/.test(specifier) || specifier === 'typebox' || specifier.startsWith('node:');
        assert.ok(allowed, `${file} imports ${specifier}`);
      }
    }
  });

  it('each contract version is defined once, in its contract, and providers name it by its constant', () => {
    const everywhere = ['kernel', 'layers', 'plugins', 'providers', 'app', 'cli', 'testing'].flatMap(sources);
    const definitions = everywhere.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export const ([A-Z]+)_CONTRACT_(VERSION|ACCEPTS) = /g)].map((m) => `${m[1]}_${m[2]} in ${file}`));
    assert.deepEqual(definitions.sort(), ['AI', 'AUTH', 'BLOB', 'BROWSER', 'CAPTCHA', 'OUTPUT', 'QUEUE', 'SCHEDULER', 'STORAGE'].flatMap((c) => {
      const file = `kernel/contracts/${c.toLowerCase()}.ts`;
      return [`${c}_ACCEPTS in ${file}`, `${c}_VERSION in ${file}`];
    }).sort());
    const literal = everywhere.filter((file) => /contractVersion:\s*['"\d]/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(literal, [], 'a provider states its version as a literal');
  });

  it('the shipped suites import only node, the package\'s own shipped files and no test helper', () => {
    for (const file of sources('testing')) {
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('node:')) continue;
        assert.ok(specifier.startsWith('.'), `${file} imports the library ${specifier}`);
        const target = path.relative('.', path.resolve(path.dirname(file), specifier));
        assert.match(target, /^(kernel|layers|providers|testing)\//, `${file} imports ${target}, which is not shipped`);
      }
    }
  });

  describe('the tarball', () => {
    let files: Set<string>;
    before(() => {
      const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
      assert.equal(built.status, 0, 'the build failed');
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
      const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', env });
      assert.equal(packed.status, 0, packed.stderr);
      files = new Set((JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
    }, { timeout: 300_000 });

    it('holds every exported entry with its declarations, the bin, the dashboard and the suites\' pages', () => {
      const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, string | { types: string; default: string }>; bin: Record<string, string> };
      for (const [entry, target] of Object.entries(manifest.exports)) {
        for (const file of typeof target === 'string' ? [target] : [target.types, target.default]) {
          assert.ok(files.has(file.replace(/^\.\//, '')), `${entry}: ${file} is not in the tarball`);
        }
      }
      for (const file of [...Object.values(manifest.bin), 'web/dist/index.html', 'dist/testing/browser/pages/index.html', 'README.md']) {
        assert.ok(files.has(file.replace(/^\.\//, '')), `${file} is not in the tarball`);
      }
    });

    it('holds no tests, no sources, no examples and no build stamp', () => {
      const unneeded = [...files].filter((file) =>
        /^(test|examples|kernel|plugins|providers|layers|testing|cli|app|scripts|bench)\//.test(file)
        || (file.endsWith('.ts') && !file.endsWith('.d.ts')) || file.endsWith('.build-inputs.json'));
      assert.deepEqual(unneeded, []);
    });
  });
});
