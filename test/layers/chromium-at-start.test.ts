// The pool's Chromium is chosen at start-up (before any run) and logged once; a failure is tried again later.
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBrowserPool } from '../../layers/browser-pool/browser-pool.js';
import { chromiumAtStart } from '../../layers/browser-pool/chromium-at-start.js';
import type { BrowserDriver, BrowserLaunchOptions } from '../../kernel/contracts/browser.js';
import type { Logger } from '../../kernel/contracts/logger.js';

interface Line { level: string; obj: Record<string, unknown>; msg?: string }

function recordingLogger(lines: Line[]): Logger {
  const at = (level: string) => (obj: unknown, msg?: string) => { lines.push({ level, obj: obj as Record<string, unknown>, msg }); };
  const logger: Logger = {
    fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'),
    child: () => logger,
  };
  return logger;
}

/** Waits (generously) for something that happens in the background. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('chromiumAtStart', () => {
  let dir: string;
  let bin: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-at-start-'));
    bin = path.join(dir, 'bin');
    await mkdir(bin);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const fake = async (file: string) => {
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    return file;
  };

  it('the service pool detects when it is made, logs the choice once and launches it with its environment', async () => {
    const packaged = await fake(path.join(dir, 'packaged-chromium'));
    const lines: Line[] = [];
    let unpacks = 0;
    const launches: BrowserLaunchOptions[] = [];
    const driver: BrowserDriver = {
      id: 'fake',
      launch: async (options) => { launches.push(options); throw new Error('no real browser in this test'); },
      packagedChromium: async () => {
        unpacks++;
        return { executablePath: packaged, env: { LD_LIBRARY_PATH: '/packaged/lib' }, origin: 'a-package 1.0.0', headlessOnly: true };
      },
    };
    const pool = createBrowserPool({ driver, config: {}, logger: recordingLogger(lines), searchPath: path.join(dir, 'empty') });
    await eventually(() => lines.length > 0);
    assert.equal(unpacks, 1, 'detected before any run');
    const chosen = lines.filter((line) => line.msg?.startsWith('Chromium to launch'));
    assert.equal(chosen.length, 1);
    assert.equal(chosen[0]!.msg, `Chromium to launch: ${packaged} (the headless Chromium packaged in a-package 1.0.0)`);
    assert.deepEqual(chosen[0]!.obj, { executable: packaged, source: 'package', headlessOnly: true });

    for (let i = 0; i < 2; i++) await pool.withContext({}, async () => undefined);
    assert.equal(unpacks, 1, 'not detected again for each launch');
    assert.equal(lines.filter((line) => line.msg?.startsWith('Chromium to launch')).length, 1, 'logged once');
    assert.deepEqual(launches.map((l) => [l.executablePath, l.env]), [[packaged, { LD_LIBRARY_PATH: '/packaged/lib' }], [packaged, { LD_LIBRARY_PATH: '/packaged/lib' }]]);
    await pool.close();
  });

  it('a failed start-up detection is logged once with its hint and tried again at the next launch', async () => {
    const lines: Line[] = [];
    const get = chromiumAtStart({ driver: {}, searchPath: bin }, recordingLogger(lines));
    await assert.rejects(get(), /apt-get install chromium/);
    const warnings = lines.filter((line) => line.level === 'warn');
    assert.equal(warnings.length, 1);
    assert.match(String(warnings[0]!.obj.reason), /Chromium not found: set BROWSER_EXECUTABLE_PATH or install chromium/);
    const installed = await fake(path.join(bin, 'chromium'));
    assert.equal((await get()).executablePath, installed, 'installed meanwhile: found without a restart');
    assert.equal(lines.filter((line) => line.level === 'warn').length, 1);
  });

  it('a chosen browser that has gone is looked for again', async () => {
    const lines: Line[] = [];
    const shell = await fake(path.join(bin, 'chromium-headless-shell'));
    const get = chromiumAtStart({ driver: {}, searchPath: bin, use: 'headless' }, recordingLogger(lines));
    assert.equal((await get()).executablePath, shell);
    await rm(shell);
    assert.equal((await get()).executablePath, path.join(bin, 'chromium'));
    assert.equal(lines.filter((line) => line.msg?.startsWith('Chromium to launch')).length, 2);
  });
});
