// scripts/ensure-built.mjs (what `npm start` runs first) in a small project of its own: real tsc, real npm,
// real files. It builds what was never built, then finds nothing to do and touches nothing, rebuilds what an
// edit reaches (and only that), and stops on a failed build with the compiler's message, starting nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = process.cwd();
let dir = '';

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};
const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
/** The builds run so far, one line each (the project's build scripts append them). */
const builds = () => (fs.existsSync(path.join(dir, 'builds.log')) ? read('builds.log').trim().split('\n') : []);

/** Every file under `folder` with its modification time, to prove a run rewrote nothing. */
function mtimes(folder: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of fs.readdirSync(path.join(dir, folder), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      out[path.relative(dir, full)] = fs.statSync(full).mtimeMs;
    }
  }
  return out;
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_execpath: '' }, timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, all: result.stdout + result.stderr };
}
const ensure = (...args: string[]) => run(process.execPath, ['scripts/ensure-built.mjs', ...args]);

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskloom-ensure-built-'));
  for (const file of ['ensure-built.mjs', 'build-inputs.mjs', 'build-lock.mjs']) {
    write(`scripts/${file}`, fs.readFileSync(path.join(REPO, 'scripts', file), 'utf8'));
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  write('package.json', JSON.stringify({
    name: 'ensure-built-fixture',
    type: 'module',
    scripts: {
      build: 'tsc -p tsconfig.build.json && echo server >> builds.log',
      // Stands in for the dashboard's vite build: web/dist from web/src, and a line in the log.
      'build:web': 'node build-web.mjs && echo web >> builds.log',
      start: 'node scripts/ensure-built.mjs && node dist/kernel/main.js',
    },
  }, null, 2));
  write('build-web.mjs', [
    "import fs from 'node:fs';",
    "fs.mkdirSync('web/dist', { recursive: true });",
    "fs.writeFileSync('web/dist/index.html', fs.readFileSync('web/index.html', 'utf8') + fs.readFileSync('web/src/main.ts', 'utf8'));",
  ].join('\n'));
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', rootDir: '.', types: [], skipLibCheck: true },
    include: ['kernel'],
  }));
  write('tsconfig.build.json', JSON.stringify({ extends: './tsconfig.json', include: ['kernel'] }));
  write('kernel/greeting.ts', "export const greeting: string = 'hello from the build';\n");
  write('kernel/main.ts', "import { greeting } from './greeting.js';\nconsole.log(greeting);\n");
  write('web/index.html', '<!doctype html><title>fixture</title>\n');
  // The dashboard reads a kernel file, as the real one reads kernel records: an edit there rebuilds both.
  write('web/src/main.ts', "import { greeting } from '../../kernel/greeting.js';\ndocument.title = greeting;\n");
});

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ensure-built', () => {
  it('builds both targets when nothing was built, then finds nothing to do and rewrites nothing', () => {
    const first = ensure();
    assert.equal(first.code, 0, first.all);
    assert.match(first.stderr, /building the server: not built yet/);
    assert.match(first.stderr, /building the dashboard: not built yet/);
    assert.deepEqual(builds(), ['server', 'web']);
    assert.ok(fs.existsSync(path.join(dir, 'dist/kernel/main.js')));

    const before = { ...mtimes('dist'), ...mtimes('web/dist') };
    const second = ensure();
    assert.equal(second.code, 0, second.all);
    assert.equal(second.all, '', 'an up-to-date tree prints nothing');
    assert.deepEqual(builds(), ['server', 'web'], 'no build ran');
    assert.deepEqual({ ...mtimes('dist'), ...mtimes('web/dist') }, before, 'no output file was rewritten');

    const check = ensure('--check');
    assert.equal(check.code, 0);
    assert.equal(check.stdout, 'server: up to date\nweb: up to date\n');
  });

  it('npm start on a built tree starts without building', () => {
    const start = run('npm', ['start', '--silent']);
    assert.equal(start.code, 0, start.all);
    assert.equal(start.stdout.trim(), 'hello from the build');
    assert.doesNotMatch(start.stderr, /building/);
    assert.deepEqual(builds(), ['server', 'web']);
  });

  it('a touched but unchanged source builds nothing: content decides, not modification times', () => {
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, 'kernel/main.ts'), later, later);
    const result = ensure();
    assert.equal(result.code, 0, result.all);
    assert.equal(result.all, '');
    assert.deepEqual(builds(), ['server', 'web']);
  });

  it('an edited source rebuilds what reads it, and only that', () => {
    const web = mtimes('web/dist');
    fs.appendFileSync(path.join(dir, 'kernel/main.ts'), '// edited\n');
    const check = ensure('--check');
    assert.equal(check.code, 1);
    assert.match(check.stdout, /server: out of date \(kernel\/main\.ts changed since the last build\)/);
    assert.match(check.stdout, /web: up to date/);

    const server = ensure();
    assert.equal(server.code, 0, server.all);
    assert.match(server.stderr, /building the server: kernel\/main\.ts changed since the last build/);
    assert.deepEqual(builds(), ['server', 'web', 'server']);
    assert.deepEqual(mtimes('web/dist'), web, 'the dashboard was not rebuilt');

    // The dashboard imports kernel/greeting.ts: an edit there rebuilds both.
    write('kernel/greeting.ts', "export const greeting: string = 'hello again';\n");
    const both = ensure();
    assert.equal(both.code, 0, both.all);
    assert.deepEqual(builds(), ['server', 'web', 'server', 'server', 'web']);
    assert.match(read('web/dist/index.html'), /greeting/);
  });

  it('an added source or a deleted output is rebuilt', () => {
    write('kernel/extra.ts', 'export const extra = 1;\n');
    const added = ensure('server');
    assert.equal(added.code, 0, added.all);
    assert.match(added.stderr, /kernel\/extra\.ts changed since the last build/);
    assert.ok(fs.existsSync(path.join(dir, 'dist/kernel/extra.js')));

    fs.rmSync(path.join(dir, 'dist/kernel/greeting.js'));
    const missing = ensure('server');
    assert.equal(missing.code, 0, missing.all);
    assert.match(missing.stderr, /dist\/kernel\/greeting\.js is missing/);
    assert.ok(fs.existsSync(path.join(dir, 'dist/kernel/greeting.js')));
    assert.equal(ensure('--check').code, 0);
  });

  it("a failed build stops npm start with the compiler's message and never passes for a finished one", () => {
    const good = read('kernel/main.ts');
    write('kernel/main.ts', `${good}const count: number = 'not a number';\n`);
    const start = run('npm', ['start', '--silent']);
    assert.notEqual(start.code, 0);
    assert.match(start.all, /kernel\/main\.ts.*error TS2322/);
    assert.match(start.stderr, /building the server failed \(the compiler's message is above\); nothing was started/);
    assert.doesNotMatch(start.stdout, /hello/, 'the stale service did not start');

    // tsc wrote its output anyway; the next start still refuses rather than running it.
    const again = ensure();
    assert.equal(again.code, 1);
    assert.match(again.stderr, /building the server: no finished build is recorded/);

    // As `prepare` runs it on npm install: the failure is reported, the install goes on.
    const install = ensure('--warn-only');
    assert.equal(install.code, 0);
    assert.match(install.stderr, /building the server failed \(the compiler's message is above\); npm start will build it again/);
    assert.equal(ensure('--check').code, 1, 'and the tree still counts as unbuilt');

    write('kernel/main.ts', good);
    const fixed = run('npm', ['start', '--silent']);
    assert.equal(fixed.code, 0, fixed.all);
    assert.match(fixed.stdout, /hello again/);
  });

  it('two starts at once build once: the second waits for the first and finds nothing left to do', async () => {
    fs.appendFileSync(path.join(dir, 'kernel/main.ts'), '// edited again\n');
    const count = builds().length;
    const start = () => new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['scripts/ensure-built.mjs', 'server'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    const both = await Promise.all([start(), start()]);
    assert.deepEqual(both.map((r) => r.code), [0, 0], both.map((r) => r.stderr).join('\n'));
    assert.deepEqual(builds().slice(count), ['server'], 'one build');
    assert.equal(both.filter((r) => /building the server/.test(r.stderr)).length, 1);
  });

  it("a lock left by a build that died is taken over", () => {
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    const hash = createHash('sha1').update(fs.realpathSync(dir)).digest('hex').slice(0, 16);
    const lock = path.join(os.tmpdir(), `taskloom-build-${hash}.lock`);
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), dead);
    fs.appendFileSync(path.join(dir, 'kernel/main.ts'), '// and again\n');
    const result = ensure('server');
    assert.equal(result.code, 0, result.all);
    assert.match(result.stderr, /building the server/);
    assert.equal(fs.existsSync(lock), false, 'the lock is released');
  });

  it('names an unknown target or option', () => {
    const result = ensure('dashboard', '--chek');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown argument dashboard, --chek: use server, web, --check or --warn-only/);
  });
});
