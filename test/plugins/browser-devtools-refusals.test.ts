// The DevTools relay, method by method, on the real service with real Chromium and ALLOW_PRIVATE_NETWORKS off:
// a plain WebSocket client sends what an attacker would (host files, the service's loopback, download folders,
// the shared browser's end), each gets an error and has no effect; what a client needs still works.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { waitFor } from '../../testing/browser/chromium-processes.js';
import { connectRawCdp, type CdpAnswer, type RawCdpClient } from '../support/raw-cdp-client.js';
import { ALLOWED_ADDRESS, DOWNLOAD_NAME, DOWNLOAD_TEXT, startRelaySites, type RelaySites } from '../support/relay-sites.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

function assertRefused(answer: CdpAnswer, what: string): void {
  assert.ok(answer.error, `${what} was forwarded: ${JSON.stringify(answer.result)}`);
  assert.match(answer.error.message, /^taskloom's DevTools relay refused /, what);
}

describe('the DevTools relay refuses what reaches the host', { skip: chromium.skip }, () => {
  let svc: TestService;
  let sites: RelaySites;
  let cdp: RawCdpClient;
  let page: { targetId: string; sessionId: string };
  let sessionId: string;
  let pid: number;
  let downloads: string;
  const outside = mkdtempSync(path.join(os.tmpdir(), 'taskloom-outside-'));
  const secretFile = path.join(outside, 'secret.txt');
  const display = process.env.DISPLAY;

  before(async () => {
    delete process.env.DISPLAY;
    writeFileSync(secretFile, 'TOP-SECRET-FILE', { mode: 0o600 });
    sites = await startRelaySites();
    svc = await startService({ BROWSER_EXECUTABLE_PATH: chromium.path! }, undefined,
      { outbound: { allowAddress: (ip) => ip === ALLOWED_ADDRESS } });
    const { apiKey } = await setupAdmin(svc);
    const opened = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(opened.status, 200, opened.text);
    sessionId = opened.body.sessionId;
    pid = svc.service.app.browserSessions.get(sessionId).pid!;
    cdp = await connectRawCdp(opened.body.wsEndpoint);
    page = await cdp.openPage(`${sites.allowed}/`);
    await loaded(page.sessionId);
    downloads = path.join(svc.dataDir, 'browser-sessions', sessionId, 'downloads');
  });
  after(async () => {
    await cdp?.close();
    await svc?.close();
    await sites?.close();
    if (display !== undefined) process.env.DISPLAY = display;
  });

  const browserAlive = async () => {
    assert.ok(existsSync(`/proc/${pid}`), 'the browser process runs');
    const version = await cdp.send('Browser.getVersion');
    assert.ok(version.result?.product, 'the browser still answers');
  };
  /** Waits (generously) until the allowed page shows in `session`. */
  const loaded = async (session: string) => {
    for (let tries = 0; tries < 300; tries++) {
      const text = await cdp.send('Runtime.evaluate', { expression: 'document.body ? document.body.innerText : ""', returnByValue: true }, session);
      if (/allowed page/.test(text.result?.result?.value ?? '')) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the allowed page did not load within 30 s');
  };
  const pageText = async () =>
    (await cdp.send('Runtime.evaluate', { expression: 'document.body ? document.body.innerText : ""', returnByValue: true }, page.sessionId))
      .result?.result?.value as string;

  it('refuses Browser.close, Browser.crash and Browser.crashGpuProcess: the shared browser lives on', async () => {
    for (const method of ['Browser.close', 'Browser.crash', 'Browser.crashGpuProcess']) assertRefused(await cdp.send(method), method);
    await browserAlive();
    assert.equal(svc.service.app.browserSessions.current()?.id, sessionId);
  });

  it('refuses opening host files, browser pages and loopback hosts in a new target: none is created', async () => {
    const loopbackPort = new URL(sites.loopback).port;
    const urls = [`file://${secretFile}`, 'file:///etc/passwd', 'FILE:///etc/passwd', ' file:///etc/passwd', 'chrome://version',
      'chrome://settings', 'about:version', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html',
      'devtools://devtools/bundled/inspector.html', 'view-source:http://127.0.0.2/', 'javascript:alert(1)',
      'filesystem:http://127.0.0.2/temporary/x', `${sites.loopback}/`, `http://localhost:${loopbackPort}/`,
      `http://[::1]:${loopbackPort}/`, `http://0x7f.1:${loopbackPort}/`, 'blob:file:///0f0f0f0f-0000-0000-0000-000000000000'];
    for (const url of urls) assertRefused(await cdp.send('Target.createTarget', { url }), url);
    const { targetInfos } = (await cdp.send('Target.getTargets')).result;
    // Pages only: the browser_ui targets are Chromium's own interface (its omnibox popup), there from the start.
    const opened = targetInfos.filter((t: { type: string }) => t.type === 'page').map((t: { url: string }) => t.url);
    assert.ok(opened.every((url: string) => url === 'about:blank' || url.startsWith(sites.allowed)), opened.join(', '));
    assert.deepEqual(sites.loopbackRequests, []);
  });

  it('refuses navigating a page to a host file or the loopback, in a flattened session and inside sendMessageToTarget', async () => {
    const navigate = (url: string) => cdp.send('Page.navigate', { url }, page.sessionId);
    for (const url of [`file://${secretFile}`, `${sites.loopback}/`, 'chrome://version']) {
      const answer = await navigate(url);
      assertRefused(answer, url);
      assert.equal(answer.sessionId, page.sessionId, 'the refusal is routed to the session that asked');
    }
    const inner = JSON.stringify({ id: 1, method: 'Page.navigate', params: { url: `file://${secretFile}` } });
    assertRefused(await cdp.send('Target.sendMessageToTarget', { sessionId: page.sessionId, message: inner }), 'nested Page.navigate');
    assert.doesNotMatch(await pageText(), /TOP-SECRET|LOOPBACK-SECRET/);
    assert.match(await pageText(), /allowed page/);
    assert.deepEqual(sites.loopbackRequests, []);
  });

  it('refuses fetches by the browser itself of host files or the loopback', async () => {
    const frameId = page.targetId;
    const options = { disableCache: true, includeCredentials: false };
    for (const url of ['file:///etc/passwd', `${sites.loopback}/`]) {
      assertRefused(await cdp.send('Network.loadNetworkResource', { frameId, url, options }, page.sessionId), `loadNetworkResource ${url}`);
    }
    assertRefused(await cdp.send('Fetch.continueRequest', { requestId: 'interception-1', url: 'file:///etc/passwd' }, page.sessionId), 'Fetch');
    assertRefused(await cdp.send('Network.continueInterceptedRequest', { interceptionId: 'i', url: `${sites.loopback}/` }, page.sessionId), 'Network');
    assert.deepEqual(sites.loopbackRequests, []);
  });

  it('refuses download folders outside the session\'s own; a download then lands in that folder only', async () => {
    const outsideDownloads = mkdtempSync(path.join(os.tmpdir(), 'taskloom-download-elsewhere-'));
    const attempts: Array<[string, object, string?]> = [
      ['Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: outsideDownloads }],
      ['Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: '../../..' }],
      ['Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: '/etc' }],
      ['Page.setDownloadBehavior', { behavior: 'allow', downloadPath: outsideDownloads }, page.sessionId],
    ];
    for (const [method, params, session] of attempts) assertRefused(await cdp.send(method, params, session), `${method} ${JSON.stringify(params)}`);
    // Allowed: a relative folder is taken inside the session's own.
    const allowed = await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: '.', eventsEnabled: true });
    assert.equal(allowed.error, undefined, allowed.error?.message);
    await cdp.send('Page.navigate', { url: `${sites.allowed}/download` }, page.sessionId);
    const saved = path.join(downloads, DOWNLOAD_NAME);
    await waitFor(() => existsSync(saved) && readFileSync(saved, 'utf8') === DOWNLOAD_TEXT, 30_000, 'the download in the session folder');
    assert.deepEqual(readdirSync(outsideDownloads), []);
    if (process.getuid?.() === 0) assert.notEqual(statSync(saved).uid, 0, 'written by the browser\'s own user, not root');
  });

  it('refuses host files for a file input or a drop, and takes files from the session folder', async () => {
    const { root } = (await cdp.send('DOM.getDocument', {}, page.sessionId)).result;
    const { nodeId } = (await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#upload' }, page.sessionId)).result;
    assertRefused(await cdp.send('DOM.setFileInputFiles', { nodeId, files: [secretFile] }, page.sessionId), 'setFileInputFiles');
    const drop = { type: 'drop', x: 5, y: 5, data: { items: [], files: ['/etc/passwd'], dragOperationsMask: 1 } };
    assertRefused(await cdp.send('Input.dispatchDragEvent', drop, page.sessionId), 'dispatchDragEvent');
    const name = (await cdp.send('Runtime.evaluate', { expression: 'document.querySelector("#upload").files.length', returnByValue: true }, page.sessionId));
    assert.equal(name.result.result.value, 0);
    // A file of the session's own folder (the download above) can be handed to the page.
    const set = await cdp.send('DOM.setFileInputFiles', { nodeId, files: [DOWNLOAD_NAME] }, page.sessionId);
    assert.equal(set.error, undefined, set.error?.message);
    const chosen = await cdp.send('Runtime.evaluate', { expression: 'document.querySelector("#upload").files[0].name', returnByValue: true }, page.sessionId);
    assert.equal(chosen.result.result.value, DOWNLOAD_NAME);
  });

  it('refuses contexts with a proxy to the loopback or around the service\'s proxy, and lifting the same-origin rule', async () => {
    for (const params of [{ proxyServer: `${sites.loopback}` }, { proxyServer: 'direct://' }, { proxyServer: 'socks5://localhost:1080' },
      { proxyServer: 'http=127.0.0.2:1;https=127.0.0.1:2' }, { originsWithUniversalNetworkAccess: [sites.loopback] }]) {
      assertRefused(await cdp.send('Target.createBrowserContext', params), JSON.stringify(params));
    }
    const plain = await cdp.send('Target.createBrowserContext', {});
    assert.ok(plain.result?.browserContextId, plain.error?.message);
    await cdp.send('Target.disposeBrowserContext', { browserContextId: plain.result.browserContextId });
  });

  it('refuses, one by one, the other methods on the list', async () => {
    const refused: Array<[string, object]> = [
      ['Browser.getBrowserCommandLine', {}],
      ['Browser.executeBrowserCommand', { commandId: 'openTabSearch' }],
      ['Target.setRemoteLocations', { locations: [{ host: '127.0.0.1', port: 22 }] }],
      ['Target.exposeDevToolsProtocol', { targetId: page.targetId }],
      ['Target.openDevTools', { targetId: page.targetId }],
      ['SystemInfo.getInfo', {}],
      ['SystemInfo.getProcessInfo', {}],
      ['PWA.launchFilesInApp', { manifestId: 'http://127.0.0.2/m.json', files: ['/etc/passwd'] }],
      ['PWA.install', { manifestId: 'x', installUrlOrBundleUrl: 'file:///tmp/app.swbn' }],
      ['Extensions.loadUnpacked', { path: outside }],
      ['Tethering.bind', { port: 9229 }],
      ['Cast.startDesktopMirroring', { sinkName: 'tv' }],
      ['DeviceAccess.selectPrompt', { id: 'x', deviceId: 'y' }],
      // Not on the list, with a parameter named like a path: refused until someone lists it.
      ['Storage.madeUpMethod', { exportPath: '/tmp/out' }],
    ];
    for (const [method, params] of refused) assertRefused(await cdp.send(method, params), method);
    await browserAlive();
  });

  it('lets a client see the browser\'s own interface pages but not drive them', async (t) => {
    const { targetInfos } = (await cdp.send('Target.getTargets')).result;
    const internal = targetInfos.find((info: { type: string; url: string }) => info.type === 'browser_ui' || info.url.startsWith('chrome:'));
    if (!internal) return t.skip('this Chromium shows no page of its own interface to attach to');
    const attached = await cdp.send('Target.attachToTarget', { targetId: internal.targetId, flatten: true });
    assert.ok(attached.result?.sessionId, attached.error?.message);
    const sessionId = attached.result.sessionId as string;
    assertRefused(await cdp.send('Runtime.evaluate', { expression: 'chrome.send ? "bindings" : "none"' }, sessionId), `evaluate in ${internal.url}`);
    assertRefused(await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: '1' } }) }), 'nested');
    const detached = await cdp.send('Target.detachFromTarget', { sessionId });
    assert.equal(detached.error, undefined, detached.error?.message);
  });

  it('answers a message that is not JSON with a parse error, and forwards a method Chromium does not know', async () => {
    const garbage = await cdp.sendText('{"id": 7, "method": ');
    assert.equal(garbage.error?.code, -32700);
    const unknown = await cdp.send('Storage.madeUpMethod', { quantity: 1 });
    assert.ok(unknown.error && !/taskloom/.test(unknown.error.message), 'Chromium, not the relay, answered');
    const proto = await cdp.send('__proto__', {});
    assert.ok(proto.error, 'answered, without harm');
    await browserAlive();
  });

  it('still lets a client open an allowed page, read it and take a screenshot', async () => {
    const target = await cdp.openPage('about:blank');
    const nav = await cdp.send('Page.navigate', { url: `${sites.allowed}/` }, target.sessionId);
    assert.equal(nav.error, undefined, nav.error?.message);
    await loaded(target.sessionId);
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png' }, target.sessionId);
    assert.equal(shot.error, undefined, shot.error?.message);
    assert.equal(Buffer.from(shot.result.data, 'base64').subarray(1, 4).toString(), 'PNG');
    assert.equal((await cdp.send('Target.closeTarget', { targetId: target.targetId })).result?.success, true);
  });
});
