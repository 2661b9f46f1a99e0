import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserServer } from 'playwright';
import { createPlaywrightDriver } from '../../../providers/browser/playwright/index.js';
import { browserContract, chromiumOrSkip } from '../../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../../support/pages-server.js';

browserContract('playwright', () => createPlaywrightDriver());

const found = chromiumOrSkip();
describe('playwright: a Playwright server as BROWSER_WS_ENDPOINT', { skip: found.skip }, () => {
  let server: BrowserServer;
  let pages: PagesServer;
  before(async () => {
    pages = await startPagesServer();
    server = await chromium.launchServer({ executablePath: found.path, host: '127.0.0.1', args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await server?.close();
    await pages?.close();
  });

  it('connects with the Playwright protocol and runs a page', async () => {
    const handle = await createPlaywrightDriver().launch({ wsEndpoint: server.wsEndpoint(), headless: true, args: [], timeoutMs: 10_000 });
    try {
      assert.equal(handle.pid, undefined);
      assert.equal(handle.cdpEndpoint?.(), undefined, 'a Playwright server is not a DevTools endpoint');
      const context = await handle.newContext({ viewport: { width: 500, height: 400 } });
      const page = await context.newPage();
      await page.goto(`${pages.origin}/second.html`, 5000);
      assert.deepEqual(await page.evaluate('return [document.title, innerWidth]', {}), ['Second page', 500]);
      await context.close();
    } finally {
      await handle.close();
    }
  });
});
