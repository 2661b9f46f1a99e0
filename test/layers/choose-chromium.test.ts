// The order in which the Chromium to launch is chosen, with real executable files in temporary folders.
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { chooseChromium, type ChooseChromiumOptions } from '../../layers/browser-pool/choose-chromium.js';
import type { PackagedChromium } from '../../kernel/contracts/browser.js';

describe('chooseChromium', () => {
  let dir: string;
  let bin: string;
  let packagedCalls: number;
  let packaged: PackagedChromium;
  const fake = async (file: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    return file;
  };
  /** A driver whose engine has `engine` downloaded and whose package unpacks `packaged` (or fails with `fails`). */
  const driver = (engine?: string, fails?: string): ChooseChromiumOptions['driver'] => ({
    installedExecutablePath: async () => engine,
    packagedChromium: async () => {
      packagedCalls++;
      if (fails) throw new Error(fails);
      return packaged;
    },
  });

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-choose-'));
    bin = path.join(dir, 'bin');
    packaged = {
      executablePath: await fake(path.join(dir, 'data', 'browsers', 'packaged', 'chromium')),
      env: { LD_LIBRARY_PATH: path.join(dir, 'data', 'browsers', 'packaged', 'lib') },
      origin: '@sparticuz/chromium 147.0.0',
      headlessOnly: true,
    };
  });
  beforeEach(async () => {
    packagedCalls = 0;
    await rm(bin, { recursive: true, force: true });
    await mkdir(bin);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('takes BROWSER_EXECUTABLE_PATH before everything, and nothing else when it is missing', async () => {
    const configured = await fake(path.join(dir, 'my-chrome'));
    const engine = await fake(path.join(dir, 'engine', 'chrome'));
    await fake(path.join(bin, 'chromium'));
    const choice = await chooseChromium({ configuredPath: configured, driver: driver(engine), searchPath: bin });
    assert.deepEqual([choice.executablePath, choice.source], [configured, 'BROWSER_EXECUTABLE_PATH']);
    await assert.rejects(chooseChromium({ configuredPath: path.join(dir, 'missing'), driver: driver(engine), searchPath: bin }), {
      name: 'ChromiumNotFoundError',
      message: new RegExp(`not found at ${path.join(dir, 'missing')}.*BROWSER_EXECUTABLE_PATH.*apt-get install chromium`),
    });
    assert.equal(packagedCalls, 0);
  });

  it("then the engine's own downloaded browser, before the PATH", async () => {
    const engine = await fake(path.join(dir, 'engine', 'chrome'));
    await fake(path.join(bin, 'chromium'));
    const choice = await chooseChromium({ driver: driver(engine), searchPath: bin });
    assert.deepEqual([choice.executablePath, choice.source, choice.headlessOnly], [engine, 'engine', false]);
    // An engine path that is not on disk is passed over.
    const next = await chooseChromium({ driver: driver(path.join(dir, 'engine', 'absent')), searchPath: bin });
    assert.deepEqual([next.executablePath, next.source], [path.join(bin, 'chromium'), 'PATH']);
  });

  it('then the PATH: a headless shell first for headless use, a full browser first otherwise, only a full one for a window', async () => {
    const shell = await fake(path.join(bin, 'chromium-headless-shell'));
    const chrome = await fake(path.join(bin, 'google-chrome'));
    const headless = await chooseChromium({ driver: driver(), searchPath: bin, use: 'headless' });
    assert.deepEqual([headless.executablePath, headless.headlessOnly], [shell, true]);
    assert.equal((await chooseChromium({ driver: driver(), searchPath: bin })).executablePath, chrome);
    assert.equal((await chooseChromium({ driver: driver(), searchPath: bin, use: 'window' })).executablePath, chrome);
    await rm(chrome);
    assert.equal((await chooseChromium({ driver: driver(), searchPath: bin })).executablePath, shell);
    assert.equal(packagedCalls, 0, 'the package is not unpacked while the PATH has a browser');
  });

  it('last, the Chromium packaged in an npm package, with the environment it needs', async () => {
    for (const use of ['headless', 'any'] as const) {
      const choice = await chooseChromium({ driver: driver(), searchPath: bin, use });
      assert.deepEqual(choice, {
        executablePath: packaged.executablePath,
        env: packaged.env,
        source: 'package',
        description: 'the headless Chromium packaged in @sparticuz/chromium 147.0.0',
        headlessOnly: true,
      });
    }
  });

  it('for a window, never the packaged headless shell: the error names what to install', async () => {
    await fake(path.join(bin, 'chromium-headless-shell'));
    await assert.rejects(chooseChromium({ driver: driver(), searchPath: bin, use: 'window' }), (error: Error) => {
      assert.equal(error.name, 'ChromiumNotFoundError');
      assert.match(error.message, /No Chromium that can show a window/);
      assert.match(error.message, /headless Chromium packaged with taskloom, cannot show one/);
      assert.match(error.message, /apt-get install chromium/);
      assert.match(error.message, /BROWSER_EXECUTABLE_PATH/);
      return true;
    });
    assert.equal(packagedCalls, 0);
  });

  it('with nothing at all, the error names every way out, with why the package did not serve', async () => {
    const missing = 'The headless Chromium packaged in @sparticuz/chromium is not installed either: reinstall with optional '
      + 'dependencies (npm install --include=optional) to use it';
    await assert.rejects(chooseChromium({ driver: driver(undefined, missing), searchPath: bin }), {
      name: 'ChromiumNotFoundError',
      message: `Chromium not found: set BROWSER_EXECUTABLE_PATH or install chromium (apt-get install chromium). ${missing}`,
    });
    await assert.rejects(chooseChromium({ driver: {}, searchPath: bin }), {
      message: 'Chromium not found: set BROWSER_EXECUTABLE_PATH or install chromium (apt-get install chromium)',
    });
  });
});
