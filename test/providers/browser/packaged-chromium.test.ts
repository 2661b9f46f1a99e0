// The Chromium packaged in @sparticuz/chromium, unpacked into DATA_DIR: a small stand-in package made here
// (real Brotli, real tar) for the cases, then the real package in two processes racing, started on this machine.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { launchChromium } from '../../../providers/browser/shared/launch-chromium.js';
import { installedPackage, packagedChromium, type PackageFiles } from '../../../providers/browser/shared/packaged-chromium.js';
import type { TarFs } from '../../../providers/browser/shared/brotli-files.js';

const CHILD = path.resolve('test/providers/browser/fixtures/unpack-child.ts');
const realVersion = (() => {
  try {
    return (JSON.parse(readFileSync('node_modules/@sparticuz/chromium/package.json', 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
})();
const realSkip = process.platform !== 'linux' || process.arch !== 'x64' ? `the package's Chromium is built for Linux on x64 (not ${process.platform} ${process.arch})`
  : realVersion ? false : '@sparticuz/chromium is not installed (npm install --omit=optional)';
if (realSkip) console.log(`# skipped the real package: ${realSkip}`);

function recording(messages: string[]): Logger {
  const logger: Logger = {
    fatal() {}, error() {}, warn() {}, debug() {}, trace() {},
    info: (_obj, msg) => { if (msg) messages.push(msg); },
    child: () => logger,
  };
  return logger;
}

describe('the packaged Chromium', () => {
  let root: string;
  let tarFs: TarFs;
  /** A stand-in for the package's bin folder: `chromium.br` a shell script, `al2023.tar.br`, `fonts.tar.br`. */
  const standIn = async (name: string, chromium = brotliCompressSync('#!/bin/sh\necho stand-in\n')): Promise<PackageFiles> => {
    const src = path.join(root, `${name}-src`);
    const binDir = path.join(root, `${name}-bin`);
    await mkdir(path.join(src, 'lib'), { recursive: true });
    await mkdir(path.join(src, 'fonts', 'Open_Sans'), { recursive: true });
    await mkdir(binDir);
    await writeFile(path.join(src, 'lib', 'libstand-in.so'), 'ELF');
    await symlink('/etc/passwd', path.join(src, 'lib', 'escape'));
    await writeFile(path.join(src, 'fonts.conf'), '<fontconfig><dir>/tmp/fonts</dir></fontconfig>');
    await writeFile(path.join(src, 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'), 'font');
    const tarBr = (...entries: string[]) => brotliCompressSync(execFileSync('tar', ['--owner=4321', '--group=4321', '--numeric-owner', '-C', src, '-cf', '-', ...entries]));
    await writeFile(path.join(binDir, 'al2023.tar.br'), tarBr('lib'));
    await writeFile(path.join(binDir, 'fonts.tar.br'), tarBr('fonts.conf', 'fonts'));
    await writeFile(path.join(binDir, 'chromium.br'), chromium);
    return { version: '1.2.3', binDir, tarFs };
  };

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'taskloom-packaged-'));
    // The tar reader the package depends on (puppeteer's browser downloader depends on it too).
    tarFs = createRequire(import.meta.url)('tar-fs') as TarFs;
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('unpacks into DATA_DIR/browsers once: the browser, its libraries, fonts and a fontconfig of its own', async () => {
    const dataDir = path.join(root, 'data');
    const files = await standIn('plain');
    const messages: string[] = [];
    const chromium = await packagedChromium({ dataDir, logger: recording(messages), files: async () => files });
    const dir = path.join(dataDir, 'browsers', 'sparticuz-chromium-1.2.3');
    assert.deepEqual(chromium, {
      executablePath: path.join(dir, 'chromium'),
      env: { LD_LIBRARY_PATH: path.join(dir, 'lib'), FONTCONFIG_FILE: path.join(dir, 'fonts.conf') },
      origin: '@sparticuz/chromium 1.2.3',
      headlessOnly: true,
    });
    assert.equal(execFileSync(chromium.executablePath, { encoding: 'utf8' }), 'stand-in\n');
    assert.deepEqual(await readdir(path.join(dir, 'lib')), ['libstand-in.so'], 'plain files only: the symlink is not made');
    assert.ok(existsSync(path.join(dir, 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf')));
    const conf = await readFile(path.join(dir, 'fonts.conf'), 'utf8');
    assert.match(conf, /<dir prefix="relative">fonts<\/dir>/);
    assert.doesNotMatch(conf, /\/tmp\/fonts/, "not the package's own fonts.conf, which points at /tmp");
    for (const file of ['lib/libstand-in.so', 'fonts/Open_Sans/OpenSans-Regular.ttf']) {
      assert.equal((await stat(path.join(dir, file))).uid, process.getuid!(), "owned by this user, not the archive's");
    }
    assert.deepEqual(messages, ['unpacking the packaged headless Chromium (once)', 'unpacked the packaged headless Chromium']);
    assert.deepEqual(await packagedChromium({ dataDir, logger: recording(messages), files: async () => files }), chromium);
    assert.equal(messages.length, 2, 'not unpacked again');
  });

  it('a broken package leaves nothing behind and says why; a later call tries again', async () => {
    const dataDir = path.join(root, 'broken');
    const broken = await standIn('broken', Buffer.from('not brotli at all'));
    await assert.rejects(packagedChromium({ dataDir, logger: recording([]), files: async () => broken }), (error: Error) => {
      assert.match(error.message, /^The headless Chromium packaged in @sparticuz\/chromium 1\.2\.3 could not be unpacked into /);
      assert.ok(error.message.includes(path.join(dataDir, 'browsers')));
      return true;
    });
    assert.deepEqual(await readdir(path.join(dataDir, 'browsers')), []);
    const fixed = await standIn('fixed');
    const chromium = await packagedChromium({ dataDir, logger: recording([]), files: async () => fixed });
    assert.ok(existsSync(chromium.executablePath));
  });

  it('without the package, says how to get it', async () => {
    await assert.rejects(packagedChromium({ dataDir: path.join(root, 'absent'), logger: recording([]), files: async () => undefined }), {
      message: 'The headless Chromium packaged in @sparticuz/chromium is not installed either: reinstall with optional dependencies '
        + '(npm install --include=optional) to use it',
    });
  });

  it('finds the installed package, its Brotli files and its tar reader; nothing where it is not installed', { skip: realSkip }, async () => {
    const files = await installedPackage();
    assert.equal(files?.version, realVersion);
    for (const name of ['chromium.br', 'al2023.tar.br', 'fonts.tar.br']) assert.ok(existsSync(path.join(files!.binDir, name)), name);
    assert.equal(typeof files!.tarFs.extract, 'function');
    // Resolved from a folder with no node_modules above it: as after npm install --omit=optional.
    assert.equal(await installedPackage(pathToFileURL(path.join(root, 'elsewhere.js')).href), undefined);
  });

  it("a new version's unpack removes the older version's folder", async () => {
    const dataDir = path.join(root, 'upgrade');
    const old = path.join(dataDir, 'browsers', 'sparticuz-chromium-1.0.0');
    await mkdir(old, { recursive: true });
    await writeFile(path.join(old, 'chromium'), 'old');
    const files = await standIn('upgrade');
    await packagedChromium({ dataDir, logger: recording([]), files: async () => files });
    assert.deepEqual(await readdir(path.join(dataDir, 'browsers')), ['sparticuz-chromium-1.2.3']);
  });

  it('the real package: two processes racing for it both get one browser, which starts on this machine', { skip: realSkip, timeout: 240_000 }, async () => {
    const dataDir = path.join(root, 'real');
    const run = () => new Promise<{ code: number | null; out: string }>((resolve) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, 'packaged', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      proc.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
      proc.once('exit', (code) => resolve({ code, out }));
    });
    const results = await Promise.all([run(), run()]);
    assert.deepEqual(results.map((r) => r.code), [0, 0]);
    const [first, second] = results.map((r) => JSON.parse(r.out) as { executablePath: string; env: Record<string, string> });
    assert.deepEqual(first, second);
    const dir = path.join(dataDir, 'browsers', `sparticuz-chromium-${realVersion}`);
    assert.equal(first!.executablePath, path.join(dir, 'chromium'));
    assert.deepEqual(await readdir(path.join(dataDir, 'browsers')), [`sparticuz-chromium-${realVersion}`], 'no temporary folder left');
    // Built for Amazon Linux: it runs here with its own NSS and expat (LD_LIBRARY_PATH), Debian's glibc.
    const version = execFileSync(first!.executablePath, ['--version'], { env: { ...process.env, ...first!.env }, encoding: 'utf8' });
    assert.match(version, new RegExp(`^Chromium ${realVersion!.split('.')[0]}\\.`));
    // Started as the providers start it: by a root service, as an unprivileged user, who must pass DATA_DIR's
    // parents (as /var/lib; this test's own folder is mkdtemp's 0700) and DATA_DIR itself (made passable).
    await chmod(root, 0o711);
    const browser = await launchChromium({ executablePath: first!.executablePath, env: first!.env, headless: true, args: [], timeoutMs: 60_000, dataDir });
    try {
      if (process.getuid?.() === 0) {
        assert.match(readFileSync(`/proc/${browser.pid}/status`, 'utf8'), /^Uid:\s+65534\s/m, 'runs as nobody');
        assert.ok(!readFileSync(`/proc/${browser.pid}/cmdline`, 'utf8').split('\0').includes('--no-sandbox'), 'with its sandbox');
      }
      const mapped = readFileSync(`/proc/${browser.pid}/maps`, 'utf8').split('\n').map((line) => line.split(/\s+/)[5] ?? '');
      for (const lib of ['libnss3.so', 'libnspr4.so', 'libexpat.so.1']) {
        assert.ok(mapped.includes(path.join(dir, 'lib', lib)), `${lib} is the package's, not the machine's`);
      }
    } finally {
      browser.kill();
      await browser.exited;
    }
  });
});
