import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ChromiumNotFoundError, detectChromium } from '../../../layers/browser-pool/detect-chromium.js';

describe('Chromium detection', () => {
  let dir: string;
  let bin: string;
  const fake = async (name: string) => {
    const file = path.join(bin, name);
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    return file;
  };
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'taskloom-detect-'));
    bin = path.join(dir, 'bin');
    await mkdir(bin);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('uses BROWSER_EXECUTABLE_PATH when set, and nothing else', async () => {
    const configured = await fake('my-chrome');
    await fake('chromium');
    assert.equal(detectChromium({ configuredPath: configured, searchPath: bin }), configured);
    assert.throws(
      () => detectChromium({ configuredPath: path.join(dir, 'missing'), searchPath: bin }),
      (error: Error) => error instanceof ChromiumNotFoundError && error.message.includes(path.join(dir, 'missing')) &&
        error.message.includes('BROWSER_EXECUTABLE_PATH') && error.message.includes('apt-get install chromium'),
    );
  });

  it("prefers the engine's own browser, then chromium, chromium-browser and google-chrome on the PATH", async () => {
    const engine = await fake('engine-chromium');
    assert.equal(detectChromium({ enginePath: engine, searchPath: bin }), engine);
    assert.equal(detectChromium({ enginePath: path.join(dir, 'not-installed'), searchPath: bin }), path.join(bin, 'chromium'));
    await rm(path.join(bin, 'chromium'));
    const chrome = await fake('google-chrome');
    assert.equal(detectChromium({ searchPath: bin }), chrome);
    const chromiumBrowser = await fake('chromium-browser');
    assert.equal(detectChromium({ searchPath: bin }), chromiumBrowser);
  });

  it('prefers a headless shell for headless use only, and falls back to the full browser', async () => {
    const full = path.join(bin, 'chromium-browser');
    const shell = await fake('chromium-headless-shell');
    assert.equal(detectChromium({ searchPath: bin, headless: true }), shell);
    assert.equal(detectChromium({ searchPath: bin, headless: false }), full);
    assert.equal(detectChromium({ searchPath: bin }), full);
    await rm(shell);
    assert.equal(detectChromium({ searchPath: bin, headless: true }), full);
  });

  it('tells the operator what to do when there is none', () => {
    assert.throws(() => detectChromium({ searchPath: path.join(dir, 'empty') }), {
      name: 'ChromiumNotFoundError',
      message: 'Chromium not found: set BROWSER_EXECUTABLE_PATH or install chromium (apt-get install chromium)',
    });
  });
});
