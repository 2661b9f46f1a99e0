// Chromium as an unprivileged user with its sandbox: who it runs as (BROWSER_USER), what it can reach, its
// environment, and the fallback to --no-sandbox where no sandbox can be set up (a stand-in Chromium that fails
// the way a real one does without user namespaces, then starts the real one).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium as playwright } from 'playwright';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { ensureReachable, resolveBrowserUser } from '../../../providers/browser/shared/browser-user.js';
import { sandboxKnownUnusable } from '../../../providers/browser/shared/chromium-sandbox.js';
import { launchChromium, type LaunchedChromium } from '../../../providers/browser/shared/launch-chromium.js';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { liveGroupMembers, waitFor } from '../../../testing/browser/chromium-processes.js';
import { silentLogger } from '../../../testing/loggers.js';

const chromium = chromiumOrSkip();
const isRoot = process.getuid?.() === 0;
const rootSkip = isRoot ? false : 'the service does not run as root here: there is no user to drop to';
if (rootSkip) console.log(`# skipped the root cases: ${rootSkip}`);
const PASSWD = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nweb:x:1500:1600::/:/bin/false\n';

const status = (pid: number, field: string) => /^\S+:\s*(.*)$/.exec(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`))!)![1]!.trim();
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

async function withBrowser<T>(options: Partial<Parameters<typeof launchChromium>[0]>, fn: (b: LaunchedChromium) => Promise<T>): Promise<T> {
  const browser = await launchChromium({ executablePath: chromium.path!, headless: true, args: [], timeoutMs: 60_000, ...options });
  try {
    return await fn(browser);
  } finally {
    browser.kill();
    await browser.exited;
  }
}

describe('whom Chromium runs as', () => {
  it('a root service drops to nobody by default, or to BROWSER_USER; root and its own user mean no switch', { skip: rootSkip }, () => {
    assert.deepEqual(resolveBrowserUser(undefined, () => PASSWD), { name: 'nobody', uid: 65534, gid: 65534 });
    assert.deepEqual(resolveBrowserUser('web', () => PASSWD), { name: 'web', uid: 1500, gid: 1600 });
    assert.deepEqual(resolveBrowserUser('2000:3000', () => PASSWD), { name: '2000:3000', uid: 2000, gid: 3000 });
    assert.equal(resolveBrowserUser('root', () => PASSWD), undefined);
    assert.equal(resolveBrowserUser('0', () => PASSWD), undefined);
    assert.deepEqual(resolveBrowserUser(undefined, () => ''), { name: 'nobody', uid: 65534, gid: 65534 }, 'no passwd entry: the well-known id');
    assert.throws(() => resolveBrowserUser('ghost', () => PASSWD), /BROWSER_USER names "ghost".*useradd/);
  });

  it('a service that is not root runs Chromium as itself, and says BROWSER_USER needs root', { skip: isRoot ? 'the service runs as root here' : false }, () => {
    assert.equal(resolveBrowserUser(undefined), undefined);
    assert.throws(() => resolveBrowserUser('nobody', () => PASSWD), /BROWSER_USER=nobody needs the service to run as root/);
  });

  it('makes folders inside DATA_DIR passable for that user, and names any other folder in the way', { skip: rootSkip }, async () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'taskloom-reach-'));
    after(() => rmSync(top, { recursive: true, force: true }));
    chmodSync(top, 0o755);
    const user = { name: 'nobody', uid: 65534, gid: 65534 };
    const inData = mkdtempSync(path.join(top, 'data-'));
    chmodSync(inData, 0o700);
    assert.deepEqual(await ensureReachable(path.join(inData, 'chromium'), user, inData), [inData]);
    assert.equal(statSync(inData).mode & 0o777, 0o701, 'search only: nothing to list');
    const elsewhere = mkdtempSync(path.join(top, 'home-'));
    chmodSync(elsewhere, 0o700);
    await assert.rejects(ensureReachable(path.join(elsewhere, 'chromium'), user, inData), /is not searchable by it.*BROWSER_USER=root/);
    assert.equal(statSync(elsewhere).mode & 0o777, 0o700, 'left as it was');
  });
});

describe('Chromium launched by a root service', { skip: chromium.skip || rootSkip }, () => {
  it('runs as nobody, in no group of root\'s, with its sandbox on, HOME in its profile, and none of the service\'s secrets', async () => {
    process.env.TASKLOOM_PLANTED_SECRET = 'planted-secret-value';
    try {
      await withBrowser({}, async (browser) => {
        assert.equal(status(browser.pid, 'Uid').split(/\s+/)[0], '65534');
        assert.equal(status(browser.pid, 'Gid').split(/\s+/)[0], '65534');
        assert.equal(status(browser.pid, 'Groups'), '');
        assert.ok(!cmdline(browser.pid).includes('--no-sandbox'), cmdline(browser.pid).join(' '));
        assert.equal(statSync(browser.profileDir).uid, 65534, 'its profile is its own');
        const env = environ(browser.pid);
        assert.ok(env.includes(`HOME=${browser.profileDir}`), env.join(' '));
        assert.ok(!env.some((entry) => entry.includes('planted-secret-value')));
        // The sandbox at work: a renderer (of a page opened here) in a user namespace of its own, under seccomp.
        const client = await playwright.connectOverCDP(browser.wsEndpoint);
        await (await client.contexts()[0]!.newPage()).setContent('<p>a page</p>');
        let renderer: number | undefined;
        await waitFor(() => {
          // A renderer rewrites its command line into one string (setproctitle): search it as text.
          renderer = liveGroupMembers(browser.pid).find((pid) => cmdline(pid).join(' ').includes('--type=renderer'));
          return renderer !== undefined;
        }, 30_000, 'a renderer');
        await client.close();
        assert.equal(status(renderer!, 'Seccomp'), '2');
        assert.notEqual(readlinkNs(renderer!), readlinkNs(process.pid), 'its own user namespace');
      });
    } finally {
      delete process.env.TASKLOOM_PLANTED_SECRET;
    }
  });

  it('cannot read a file only root may read, which it reads when everyone may (file: left open on purpose here)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'taskloom-files-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'public.txt'), 'PUBLIC-TEXT', { mode: 0o644 });
    writeFileSync(path.join(dir, 'secret.txt'), 'ROOT-ONLY-TEXT', { mode: 0o600 });
    await withBrowser({}, async (launched) => {
      const browser = await playwright.connectOverCDP(launched.wsEndpoint);
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(`file://${dir}/public.txt`);
      assert.match(await page.content(), /PUBLIC-TEXT/, 'control: this browser opens files others may read');
      const refused = await page.goto(`file://${dir}/secret.txt`).then(() => undefined, (error: Error) => error.message);
      assert.match(String(refused), /ERR_ACCESS_DENIED/);
      await browser.close();
    });
  });

  it('runs as root with one warning when nobody cannot reach it (a folder like /root in the way); an explicit BROWSER_USER is an error', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'taskloom-roothome-'));
    after(() => rmSync(home, { recursive: true, force: true }));
    const hidden = path.join(home, 'chromium');
    symlinkSync(chromium.path!, hidden);
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (fields: unknown, message?: string) => { warnings.push(`${String(message)} ${JSON.stringify(fields)}`); } };
    for (let i = 0; i < 2; i++) {
      await withBrowser({ executablePath: hidden, logger }, async (browser) => {
        assert.equal(status(browser.pid, 'Uid').split(/\s+/)[0], '0');
        assert.ok(cmdline(browser.pid).includes('--no-sandbox'));
      });
    }
    assert.equal(warnings.length, 1, warnings.join(' | '));
    assert.match(warnings[0]!, /runs as the service's own user \(root\) without its sandbox.*is not searchable/);
    await assert.rejects(launchChromium({ executablePath: hidden, browserUser: 'nobody', headless: true, args: [], timeoutMs: 60_000 }),
      /cannot be reached by the browser's user nobody/);
  });

  it('keeps root, without a sandbox, when BROWSER_USER=root', async () => {
    await withBrowser({ browserUser: 'root' }, async (browser) => {
      assert.equal(status(browser.pid, 'Uid').split(/\s+/)[0], '0');
      assert.ok(cmdline(browser.pid).includes('--no-sandbox'));
    });
  });
});

describe('a Chromium that cannot have its sandbox', { skip: chromium.skip }, () => {
  it('is started again with --no-sandbox, with one warning saying what is lost', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'taskloom-nosandbox-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const fake = path.join(dir, 'chromium');
    // What Chromium prints where unprivileged user namespaces are off (a container's seccomp profile).
    writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do [ "$a" = --no-sandbox ] && exec "${chromium.path}" "$@"; done\n`
      + 'echo "[9:9:0101/000000.000000:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! If you are running on Ubuntu 23.10+ ..." >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_fields: unknown, message?: string) => { warnings.push(String(message)); } };
    for (let i = 0; i < 2; i++) {
      await withBrowser({ executablePath: fake, dataDir: dir, logger }, async (browser) => {
        assert.ok(cmdline(browser.pid).includes('--no-sandbox'));
      });
    }
    assert.equal(sandboxKnownUnusable(fake), true);
    assert.equal(warnings.length, 1, warnings.join(' | '));
    assert.match(warnings[0]!, /--no-sandbox, so a compromised page runs with all the rights of the browser's user/);
  });
});

function readlinkNs(pid: number): string {
  return readFileSync(`/proc/${pid}/status`, 'utf8').includes('NSpid') ? String(statSync(`/proc/${pid}/ns/user`).ino) : '';
}
