// The Browser states view in real Chromium: the list shows summaries (never the state's contents) in each of the four
// themes, a state is deleted from it, and the task editor and the run dialog offer the saved states.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDashboard, dashboardSkipReason, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
const SECRET_COOKIE = 'SID-dashboard-5e1f0c';
const SECRET_ITEM = 'TOK-dashboard-a7b3d2';
const THEMES = ['dark', 'light', 'solarized-light', 'solarized-dark'];

describe('dashboard: browser states', { skip }, () => {
  let svc: TestService;
  let session: DashboardSession;
  let taskId: string;

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    const states = svc.service.app.browserStates;
    const state = {
      cookies: [{ name: 'sid', value: SECRET_COOKIE, domain: 'shop.example.com', path: '/', expires: -1, httpOnly: true, secure: true }],
      origins: [{ origin: 'https://shop.example.com', localStorage: [{ name: 'token', value: SECRET_ITEM }] }],
    };
    await states.save('shop-login', state, 'session:bs_demo');
    await states.save('old-login', state, 'run:exec_demo');
    taskId = (await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'Orders', url: 'https://shop.example.com/orders', mode: 'agent', actions: [] } })).body.id;
    session = await openDashboard(svc.baseUrl, '/browser-states', 'Browser states');
  });
  after(async () => {
    await session?.browser.close();
    await svc?.close();
  });

  it('lists the states by name with sites, cookie count and source, never their contents, readable in every theme', async () => {
    const { page } = session;
    const row = page.getByRole('row', { name: /shop-login/ });
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /shop\.example\.com/);
    assert.match(text, /session:bs_demo/);
    assert.match(text, /\b1\b/);
    const html = await page.content();
    assert.ok(!html.includes(SECRET_COOKIE) && !html.includes(SECRET_ITEM), 'the page shows a state\'s contents');
    for (const theme of THEMES) {
      await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
      const [ink, paper] = await row.locator('th').evaluate((cell) => {
        let el: Element | null = cell;
        let background = 'rgba(0, 0, 0, 0)';
        while (el && background === 'rgba(0, 0, 0, 0)') { background = getComputedStyle(el).backgroundColor; el = el.parentElement; }
        return [getComputedStyle(cell).color, background];
      });
      assert.notEqual(ink, paper, `${theme}: the name is drawn in its background's colour`);
    }
  });

  it('deletes a state after a confirmation', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Delete old-login' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /old-login/ }).waitFor({ state: 'detached' });
    assert.deepEqual((await svc.service.app.browserStates.list()).map((s) => s.name), ['shop-login']);
  });

  it('offers the saved states in the task editor', async () => {
    const { page } = session;
    await page.goto(`/tasks/${taskId}`);
    await page.getByRole('tab', { name: /options/i }).click();
    const picker = page.getByLabel('Start from browser state');
    await picker.waitFor();
    assert.deepEqual(await picker.locator('option').allInnerTexts(), ['None (the shared cookie jar)', 'shop-login']);
    assert.deepEqual(session.problems, []);
  });
});
