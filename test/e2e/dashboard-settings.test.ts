// The dashboard's settings in real Chromium: themes (persisted), the API key shown once, a proxy and a
// credential; plus an accessibility smoke check of every screen (labels, visible focus).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason, watchProblems } from '../support/dashboard.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard settings: ${skip}`);

describe('dashboard: settings and accessibility', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    svc = await startService();
    await setupAdmin(svc);
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    watchProblems(page, problems);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);

  it('applies each of the four themes at once and keeps the choice after a reload', async () => {
    for (const [label, value] of [['Light', 'light'], ['Solarized light', 'solarized-light'], ['Solarized dark', 'solarized-dark'], ['Dark', 'dark']]) {
      await page.getByRole('radio', { name: label, exact: true }).check();
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, value);
      // The page really changes colour, not just an attribute.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.ok(background.startsWith('rgb'), background);
    }
    await page.getByRole('radio', { name: 'Solarized light', exact: true }).check();
    await page.waitForFunction(() => document.cookie.includes('service_theme=solarized-light'));
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    assert.equal(await theme(), 'solarized-light');
    await page.locator('input[name="theme"][value="solarized-light"]:checked').waitFor();
  });

  it('generates the API key, shows it once, and the key works', async () => {
    await page.getByRole('button', { name: 'Generate a new key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate new key' }).click();
    const field = page.getByRole('textbox', { name: /Your new API key/ });
    await field.waitFor();
    const key = await field.inputValue();
    assert.match(key, /^tlk_/);
    const tasks = await svc.request('GET', '/api/tasks', { apiKey: key });
    assert.equal(tasks.status, 200);
    await page.reload();
    await page.getByRole('heading', { name: 'System API key' }).waitFor();
    await page.getByText('A key is set').waitFor();
    assert.equal(await page.getByRole('textbox', { name: /Your new API key/ }).count(), 0);
    assert.equal((await page.content()).includes(key), false);
  });

  it('adds a proxy (password masked) and an output credential (token masked)', async () => {
    const proxies = page.locator('#proxies');
    const add = proxies.locator('form.proxy-form').last();
    await add.getByLabel('Server').fill('http://93.184.215.14:3128');
    await add.getByLabel('Label').fill('Office gateway');
    await add.getByLabel('Username').fill('ada');
    await add.getByLabel('Password', { exact: true }).fill('proxy-secret');
    await add.getByRole('button', { name: 'Add proxy' }).click();
    await proxies.getByRole('row', { name: /Office gateway/ }).waitFor();
    assert.equal((await page.content()).includes('proxy-secret'), false);

    const credentials = page.locator('#credentials');
    const form = credentials.locator('form.credential-form').last();
    await form.getByLabel('Name').fill('Team tables');
    await form.getByLabel('Base URL').fill('https://93.184.215.14');
    await form.getByLabel('Token').fill('very-secret-token');
    await form.getByRole('button', { name: 'Add credential' }).click();
    await credentials.getByText('Team tables').waitFor();
    await credentials.getByText('token ********').waitFor();
    assert.equal((await page.content()).includes('very-secret-token'), false);
  });

  it('shows bot walls per site and proxy with the block rate and the cool-down', async () => {
    const rotation = svc.service.app.proxyRotation;
    await rotation.reportRun({ server: 'http://93.184.215.14:3128' }, 'shop.example', true);
    await rotation.reportRun({ server: 'http://93.184.215.14:3128' }, 'shop.example', false);
    await page.goto('/settings');
    const row = page.locator('#proxies').getByRole('row', { name: /shop\.example/ });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    assert.deepEqual(cells.slice(0, 4), ['Office gateway', '2', '1', '50 %']);
    assert.ok(cells[4]!.length > 0, 'blocked until a time');
  });

  it('labels every form control and shows a visible focus ring on every screen', async () => {
    const { body: task } = await svc.request('POST', '/api/tasks', {
      apiKey: (await setupKey(svc)),
      body: { name: 'Labelled', url: 'https://example.com', mode: 'agent', actions: [{ type: 'click', selector: 'a' }] },
    });
    for (const path of ['/tasks', '/tasks/new', `/tasks/${task.id}`, '/executions', '/captures', '/settings', '/headful']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      if (path.startsWith('/tasks/task_')) await page.locator('.action-title').first().click();
      const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
        .filter((el) => (el as HTMLInputElement).type !== 'hidden')
        .filter((el) => !((el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
        .map((el) => el.outerHTML.slice(0, 120)));
      assert.deepEqual(unlabelled, [], `${path} has unlabelled controls`);
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return 'none';
          const style = getComputedStyle(el);
          return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 ? 'visible' : `${el.tagName} ${style.outlineStyle} ${style.outlineWidth}`;
        });
        assert.equal(ring, 'visible', `${path}: focus ring after ${i + 1} Tab presses`);
      }
    }
  });

  it('embeds the noVNC viewer when useNovnc is on (headful endpoints stubbed), the password only in the fragment', async () => {
    await page.route('**/api/headful/status', (route) => route.fulfill({ json: { useNovnc: true, novncPort: 54311, isRunning: true } }));
    await page.route('**/api/headful/vnc-password', (route) => route.fulfill({ json: { password: 'vnc-pw-123' } }));
    await page.goto('/headful');
    await page.getByText('noVNC on port 54311').waitFor();
    await page.getByRole('button', { name: 'Show viewer' }).click();
    const src = await page.getByTitle('Headful browser (noVNC)').getAttribute('src');
    const url = new URL(src!);
    assert.equal(url.origin, `http://127.0.0.1:54311`);
    assert.equal(url.pathname, '/vnc.html');
    assert.equal(url.searchParams.get('autoconnect'), 'true');
    assert.equal(url.searchParams.has('password'), false);
    assert.equal(new URLSearchParams(url.hash.slice(1)).get('password'), 'vnc-pw-123');
    assert.equal((await page.locator('main').innerText()).includes('vnc-pw-123'), false);
    await page.unrouteAll();
  });

  it('logged no page errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});

let cachedKey: string | undefined;
async function setupKey(svc: TestService): Promise<string> {
  if (cachedKey) return cachedKey;
  const login = await svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('taskloom_session='))!.split(';')[0]!;
  cachedKey = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
  return cachedKey;
}

/**
 * Page errors, console errors (CSP violations among them) and failed API answers are problems, except the
 * 401s of the session check and the 404s of endpoints other sessions have not built yet (shown as such).
 */
