// `app.pageCapture` (what generate-selector reads): the live page a task reaches before one of its actions,
// in a fresh stateless context that stays open until `close()`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('app.pageCapture', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  const capture = () => svc.service.app.pageCapture!;
  const browser = () => svc.service.services.browser;
  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('runs the actions before actionIndex, answers the live DOM and counts matches until closed', async () => {
    const task = {
      url: `${pages.origin}/`,
      variables: { who: 'Ada' },
      actions: [
        { type: 'click', selector: '#increment' },
        { type: 'click', selector: '#increment', disabled: true },
        { type: 'type', selector: '#name', value: '{$who}' },
        { type: 'click', selector: '#greet' },
        { type: 'click', selector: '#increment' },
      ],
    };
    const page = await capture().capture(task, 4);
    try {
      assert.match(page.html, /<span id="count">1<\/span>/, 'the disabled click and the one at actionIndex did not run');
      assert.match(page.html, /Hello, Ada/);
      assert.equal(await page.matches('.item'), 3);
      assert.equal(await page.matches('#count'), 1);
      assert.equal(await page.matches('#nothing-here'), 0);
      assert.equal(await page.matches('[[['), 0, 'an invalid selector matches nothing');
      assert.equal(browser().openContexts(), 1, 'the context stays open meanwhile');
    } finally {
      await page.close();
    }
    assert.equal(browser().openContexts(), 0);
    await assert.rejects(page.matches('.item'), /closed/);
  });

  it('does not use or keep the stored cookies', async () => {
    await browser().cookieJar.clear();
    const page = await capture().capture({ url: `${pages.origin}/set-cookie?name=preview&value=1&maxAge=600`, actions: [] }, 0);
    await page.close();
    assert.deepEqual(await browser().cookieJar.load(), [], 'the preview cookie was not kept');
  });

  it('rejects with the failing action and closes the context', async () => {
    const task = { url: `${pages.origin}/`, actions: [{ type: 'click', selector: '#missing', timeoutMs: 200 }, { type: 'click', selector: '#increment' }] };
    await assert.rejects(capture().capture(task, 1), { message: /^Action 1 \(click\): .*#missing/ });
    assert.equal(browser().openContexts(), 0);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const task = { url: `${pages.origin}/`, actions: [{ type: 'wait', value: '20000' }, { type: 'click', selector: '#increment' }] };
    const pending = capture().capture(task, 1, { signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    await assert.rejects(pending, /cancelled/);
    assert.equal(browser().openContexts(), 0);
  });
});
