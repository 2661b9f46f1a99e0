// A DevTools client of POST /api/browser/open with ALLOW_PRIVATE_NETWORKS=false, speaking raw CDP: through the
// relay, and straight to the browser's own loopback endpoint (what holds whatever drives the browser). It may
// not reach the machine (loopback pages, a redirect to them, page scripts), nor read files (file:///etc/passwd,
// the store's own files), nor keep a chrome:// page open. Allowed sites still load. With the rule on, files stay out.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { connectCdp, type CdpConnection } from '../../layers/browser-pool/cdp-connection.js';
import { findOnPath, NAMES_ON_PATH } from '../../layers/browser-pool/detect-chromium.js';
import { startOutboundSites, type OutboundSites } from '../support/outbound-sites.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = findOnPath(NAMES_ON_PATH);
const noChromium = chromium ? false : 'no full Chromium on the PATH (apt-get install chromium)';

/** Opens a page in `cdp`'s browser (at `url`, created there when `create`), waits for it and reads it. */
async function readPage(cdp: CdpConnection, url: string, create = false): Promise<{ text: string; href: string; refused?: string }> {
  let targetId: string;
  let sessionId: string;
  let refused: string | undefined;
  try {
    ({ targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: create ? url : 'about:blank' }));
    ({ sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }));
    // The engine's own connection pauses new targets until it has set them up: never wait on it here.
    await cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
    if (!create) ({ errorText: refused } = await cdp.send<{ errorText?: string }>('Page.navigate', { url }, sessionId));
  } catch (error) {
    return { text: '', href: '', refused: `the DevTools command was refused: ${(error as Error).message}` };
  }
  let state = { text: '', href: '' };
  let unanswered = 0;
  // A created target starts on about:blank: give its own navigation a moment to land.
  for (let i = 0; i < 30 && unanswered < 3; i++) {
    const value = await cdp.send<{ result: { value?: { ready: string; text: string; href: string } } }>('Runtime.evaluate', {
      expression: '({ ready: document.readyState, text: document.body ? document.body.innerText : "", href: location.href })', returnByValue: true,
    }, sessionId).then((answer) => answer.result.value, (error: Error) => {
      if (/did not answer/.test(error.message)) unanswered++; // else mid-navigation: ask again
      return undefined;
    });
    if (value) state = value;
    if (value?.ready === 'complete' && (!create || value.href !== 'about:blank' || i >= 15)) break;
    await sleep(100);
  }
  await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  return { ...state, refused };
}

/** Runs `expression` (awaited) in a page at `url`. */
async function evaluateIn(cdp: CdpConnection, url: string, expression: string): Promise<unknown> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
  await sleep(500);
  const { result } = await cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
  await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  return result.value;
}

describe('a DevTools client under the outbound rule', { skip: noChromium }, () => {
  let sites: OutboundSites;
  let svc: TestService;
  let apiKey: string;
  const display = process.env.DISPLAY;

  before(async () => {
    delete process.env.DISPLAY;
    sites = await startOutboundSites();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'false', BROWSER_EXECUTABLE_PATH: chromium! }, undefined, { outbound: sites.guardOptions });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await sites?.close();
    if (display !== undefined) process.env.DISPLAY = display;
  });

  const clients: Array<[string, () => Promise<CdpConnection>]> = [
    ['through the relay', async () => {
      const open = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
      assert.equal(open.status, 200, open.text);
      return connectCdp(open.body.wsEndpoint, 15_000);
    }],
    ['on the browser\'s own endpoint', async () => {
      const open = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
      return connectCdp(svc.service.app.browserSessions.get(open.body.sessionId).cdpEndpoint()!, 15_000);
    }],
  ];

  for (const [name, connect] of clients) {
    describe(name, () => {
      let cdp: CdpConnection;
      before(async () => { cdp = await connect(); });
      after(() => cdp?.close());

      it('loads an allowed site', async () => {
        const page = await readPage(cdp, `${sites.allowed}/`);
        assert.equal(page.text, 'allowed page');
      });

      it('cannot open a loopback page, nor follow a redirect to one, nor reach one from page JavaScript', async () => {
        const direct = await readPage(cdp, `${sites.secret}/navigated`);
        assert.doesNotMatch(direct.text, /SECRET/);
        const redirected = await readPage(cdp, `${sites.allowed}/redirect?to=${encodeURIComponent(`${sites.secret}/redirected`)}`);
        assert.doesNotMatch(redirected.text, /SECRET/);
        const byName = await readPage(cdp, `http://rebind.test:${sites.secretPort}/by-name`);
        assert.doesNotMatch(byName.text, /SECRET/);
        const fetched = await evaluateIn(cdp, `${sites.allowed}/`,
          `fetch(${JSON.stringify(`${sites.secret}/fetched`)}).then((r) => r.text(), () => 'failed')`);
        assert.equal(fetched, 'failed');
        assert.deepEqual(sites.hits, []);
      });

      it('cannot read file:///etc/passwd or the store\'s files, navigating or creating a target', async () => {
        const storeFile = readdirSync(svc.dataDir, { recursive: true, withFileTypes: true }).find((entry) => entry.isFile())!;
        const storeUrl = `file://${path.join(storeFile.parentPath, storeFile.name)}`;
        for (const url of ['file:///etc/passwd', storeUrl, 'view-source:file:///etc/passwd']) {
          for (const create of [false, true]) {
            const page = await readPage(cdp, url, create);
            assert.doesNotMatch(page.text, /root:|sessionSecret|"id"/, `${url} (${create ? 'createTarget' : 'Page.navigate'})`);
            assert.ok(!page.href.startsWith('file:') && !page.href.startsWith('view-source:'), `${url}: ${JSON.stringify(page)}`);
          }
        }
      });

      it('cannot keep a chrome:// page open', async () => {
        for (const url of ['chrome://version', 'chrome://settings']) {
          const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
          const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
          await cdp.send('Page.navigate', { url }, sessionId).catch(() => undefined);
          let shown = '';
          for (let i = 0; i < 50; i++) {
            await sleep(100);
            const { targetInfos } = await cdp.send<{ targetInfos: Array<{ targetId: string; url: string }> }>('Target.getTargets');
            shown = targetInfos.find((t) => t.targetId === targetId)?.url ?? 'closed';
            if (!shown.startsWith('chrome:')) break;
          }
          assert.ok(!shown.startsWith('chrome:'), `${url} stayed open`);
          await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
        }
      });
    });
  }
});

describe('a DevTools client with ALLOW_PRIVATE_NETWORKS=true', { skip: noChromium }, () => {
  let sites: OutboundSites;
  let svc: TestService;
  let cdp: CdpConnection;

  before(async () => {
    sites = await startOutboundSites();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium! });
    const { apiKey } = await setupAdmin(svc);
    const open = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(open.status, 200, open.text);
    cdp = await connectCdp(svc.service.app.browserSessions.get(open.body.sessionId).cdpEndpoint()!, 15_000);
  });
  after(async () => {
    cdp?.close();
    await svc?.close();
    await sites?.close();
  });

  it('reaches the machine directly, as the rule allows (no proxy in the way)', async () => {
    const page = await readPage(cdp, `${sites.secret}/allowed-by-the-rule`);
    assert.equal(page.text, 'SECRET');
    assert.ok(sites.hits.includes('GET /allowed-by-the-rule'), JSON.stringify(sites.hits));
  });

  it('still cannot read file:///etc/passwd: the host\'s files are never a page', async () => {
    for (const create of [false, true]) {
      const page = await readPage(cdp, 'file:///etc/passwd', create);
      assert.doesNotMatch(page.text, /root:/);
      assert.ok(!page.href.startsWith('file:'), JSON.stringify(page));
    }
  });
});
