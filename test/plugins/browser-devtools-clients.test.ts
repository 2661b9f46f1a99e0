// Playwright's connectOverCDP and Puppeteer's connect keep working through the filtering relay with
// ALLOW_PRIVATE_NETWORKS off: allowed pages, screenshots, new contexts and downloads (into the session's own
// folder); what reaches the host fails for them as for a raw client, and the shared browser outlives them.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium as playwright } from 'playwright';
import puppeteer from 'puppeteer';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { waitFor } from '../../testing/browser/chromium-processes.js';
import { ALLOWED_ADDRESS, DOWNLOAD_NAME, DOWNLOAD_TEXT, startRelaySites, type RelaySites } from '../support/relay-sites.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('client libraries through the filtering relay', { skip: chromium.skip }, () => {
  let svc: TestService;
  let sites: RelaySites;
  let apiKey: string;
  let sessionId: string;
  let pid: number;
  let downloads: string;
  const display = process.env.DISPLAY;
  const relayUrl = () => `${svc.baseUrl.replace('http:', 'ws:')}/api/browser/sessions/${sessionId}/devtools`;
  const saved = (...parts: string[]) => path.join(downloads, ...parts);
  const downloaded = (file: string) => existsSync(file) && readFileSync(file, 'utf8') === DOWNLOAD_TEXT;

  before(async () => {
    delete process.env.DISPLAY;
    sites = await startRelaySites();
    svc = await startService({ BROWSER_EXECUTABLE_PATH: chromium.path! }, undefined,
      { outbound: { allowAddress: (ip) => ip === ALLOWED_ADDRESS } });
    ({ apiKey } = await setupAdmin(svc));
    const opened = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(opened.status, 200, opened.text);
    sessionId = opened.body.sessionId;
    pid = svc.service.app.browserSessions.get(sessionId).pid!;
    downloads = path.join(svc.dataDir, 'browser-sessions', sessionId, 'downloads');
  });
  after(async () => {
    await svc?.close();
    await sites?.close();
    if (display !== undefined) process.env.DISPLAY = display;
  });

  it('Playwright: allowed page, screenshot, a new context, a download into the session folder; host pages fail', async () => {
    const browser = await playwright.connectOverCDP(relayUrl(), { headers: { 'x-api-key': apiKey } });
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${sites.allowed}/`);
    assert.equal(await page.title(), 'Allowed');
    assert.equal((await page.screenshot()).subarray(1, 4).toString(), 'PNG');
    for (const url of ['file:///etc/passwd', `${sites.loopback}/`, 'chrome://version']) {
      await assert.rejects(page.goto(url), `${url} is refused`);
    }
    assert.deepEqual(sites.loopbackRequests, []);
    const download = page.waitForEvent('download');
    await page.click('#get');
    assert.equal((await download).suggestedFilename(), DOWNLOAD_NAME);
    // Playwright named its folder on its own machine: the relay put the file in the session's, under a GUID.
    await waitFor(() => readdirSync(downloads).some((name) => downloaded(saved(name))), 30_000, 'the download in the session folder');
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(`${sites.allowed}/`);
    assert.equal(await other.title(), 'Allowed');
    await context.close();
    await browser.close(); // disconnects
    assert.ok(existsSync(`/proc/${pid}`), 'the session\'s browser runs on');
    assert.equal(svc.service.app.browserSessions.current()?.id, sessionId);
  });

  it('Puppeteer: connect with a download folder inside the session\'s; one outside is refused at connect', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'taskloom-puppeteer-elsewhere-'));
    await assert.rejects(puppeteer.connect({ browserWSEndpoint: relayUrl(), headers: { 'x-api-key': apiKey },
      downloadBehavior: { policy: 'allow', downloadPath: outside } }), /relay refused Browser\.setDownloadBehavior/);
    const browser = await puppeteer.connect({ browserWSEndpoint: relayUrl(), headers: { 'x-api-key': apiKey },
      downloadBehavior: { policy: 'allow', downloadPath: 'puppeteer' } });
    const page = await browser.newPage();
    await page.goto(`${sites.allowed}/`);
    assert.equal(await page.title(), 'Allowed');
    assert.equal(Buffer.from(await page.screenshot()).subarray(1, 4).toString(), 'PNG');
    await assert.rejects(page.goto('file:///etc/passwd'));
    await page.click('#get');
    await waitFor(() => downloaded(saved('puppeteer', DOWNLOAD_NAME)), 30_000, 'the download in the session\'s puppeteer folder');
    assert.deepEqual(readdirSync(outside), []);
    // Puppeteer's close sends Browser.close (refused, which it does not report) and disconnects.
    await browser.close();
    assert.ok(existsSync(`/proc/${pid}`), 'the session\'s browser runs on');
    assert.equal(svc.service.app.browserSessions.current()?.id, sessionId);
  });

  it('removes the session\'s folder when the session is closed', async () => {
    const closed = await svc.request('POST', '/api/browser/close', { apiKey, body: { sessionId } });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(existsSync(path.dirname(downloads)), false);
  });
});
