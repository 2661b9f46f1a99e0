import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COOKIE_JAR_KEY } from '../../../layers/browser-pool/index.js';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';
import { startService, type TestService } from '../../support/service.js';
import { liveGroupMembers, waitFor } from '../../../testing/browser/chromium-processes.js';

const found = chromiumOrSkip();

describe('the service browser pool (services.browser)', { skip: found.skip }, () => {
  let pages: PagesServer;
  let test: TestService;
  before(async () => {
    pages = await startPagesServer();
    test = await startService({ BROWSER_ENGINE: 'puppeteer', ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  after(async () => {
    await test?.close();
    await pages?.close();
  });

  it('starts no Chromium with the service, launches on first use, keeps cookies in storage and ends Chromium on close', async () => {
    const { browser, storage } = test.service.services;
    assert.equal(browser.browserPid(), undefined, 'creating the service starts no browser');
    const outcome = await browser.withContext({ keepCookies: true }, async (context) => {
      const page = await context.newPage();
      await page.goto(`${pages.origin}/set-cookie?name=kept&value=yes&maxAge=600`, 5000);
      return page.title();
    });
    assert.deepEqual(outcome, { status: 'ok', value: 'cookie set' });
    const stored = await storage.settings.get<Array<{ name: string }>>(COOKIE_JAR_KEY);
    assert.deepEqual(stored?.map((c) => c.name), ['kept']);
    const pid = browser.browserPid()!;
    assert.ok(liveGroupMembers(pid).length > 0);
    await test.service.close();
    await waitFor(() => liveGroupMembers(pid).length === 0, 3000, 'Chromium to end with the service');
  });
});
