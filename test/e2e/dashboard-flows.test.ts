// The dashboard in real Chromium against the real service: setup, the task editor, versions, logout and login.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason, watchProblems } from '../support/dashboard.js';
import { ADMIN, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard flows: ${skip}`);

describe('dashboard: setup, task editor, versions, logout', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    svc = await startService();
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: { width: 1366, height: 768 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    watchProblems(page, problems);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('runs first-time setup and lands on the empty task list', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Create the admin account' }).waitFor();
    await page.getByLabel('Name').fill(ADMIN.name);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/tasks');
    await page.getByText('No tasks yet').waitFor();
    assert.equal((await svc.request('GET', '/api/auth/check-setup')).body.setupRequired, false);
  });

  it('creates a task in the editor: two actions from the palette, reordered by drag and by keyboard, saved', async () => {
    await page.getByRole('button', { name: 'New task' }).click();
    await page.getByRole('heading', { name: 'New task' }).waitFor();
    await page.getByLabel('Task name').fill('Read the title');
    await page.getByLabel('URL', { exact: true }).fill('https://example.com/');
    await page.getByLabel('Description').fill('Reads the page title every morning');

    await page.getByRole('button', { name: 'Add Click' }).click();
    await page.getByLabel('Selector', { exact: true }).fill('#more');
    await page.getByRole('button', { name: 'Add Wait', exact: true }).click();
    await page.getByLabel('Milliseconds', { exact: true }).fill('500');
    const titles = () => page.locator('.action-card .action-title strong').allTextContents();
    assert.deepEqual(await titles(), ['Click', 'Wait']);

    // Drag the second action's handle onto the top half of the first: it moves first.
    await page.getByRole('button', { name: /^Reorder Wait, action 2 of 2/ })
      .dragTo(page.locator('.action-card').first(), { targetPosition: { x: 200, y: 4 } });
    assert.deepEqual(await titles(), ['Wait', 'Click']);

    // Alt+Down / Alt+Up on a focused action move it; focus follows it.
    await page.getByRole('button', { name: /^Reorder Wait, action 1 of 2/ }).focus();
    await page.keyboard.press('Alt+ArrowDown');
    assert.deepEqual(await titles(), ['Click', 'Wait']);
    assert.match(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''), /^Reorder Wait, action 2 of 2/);
    await page.keyboard.press('Alt+ArrowUp');
    assert.deepEqual(await titles(), ['Wait', 'Click']);
    assert.match(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''), /^Reorder Wait, action 1 of 2/);

    // The JSON view follows the canvas.
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Task as JSON').inputValue());
    assert.deepEqual(json.actions.map((a: { type: string }) => a.type), ['wait', 'click']);
    await page.getByRole('tab', { name: 'Canvas' }).click();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/tasks\/task_/);
    await page.getByText('Saved', { exact: true }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const stored = (await svc.request('GET', `/api/tasks/${id}`, { cookie: await cookieHeader(page) })).body;
    assert.equal(stored.description, 'Reads the page title every morning');
    assert.deepEqual(stored.actions.map((a: { type: string }) => a.type), ['wait', 'click']);
    assert.equal(stored.actions[1].selector, '#more');
    assert.equal(stored.actions[0].value, '500');
  });

  it('finds a selector with the inspector (answer stubbed until the endpoint lands) and uses it', async () => {
    let asked: unknown;
    await page.route('**/api/inspector/highlight', async (route) => {
      asked = route.request().postDataJSON();
      await route.fulfill({ json: { candidates: [{ selector: 'a#more-info', xpath: '//a[@id="more-info"]', confidence: 0.92, tag: 'a', text: 'More information' }] } });
    });
    await page.getByRole('button', { name: /^Click/ }).click();
    await page.getByRole('button', { name: 'Find selector' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find selector' });
    await dialog.getByLabel(/CSS selector, or the element/).fill('More information');
    await dialog.getByRole('button', { name: 'Find', exact: true }).click();
    await dialog.getByText('a#more-info').waitFor();
    assert.match(await dialog.textContent() ?? '', /92%/);
    await dialog.getByRole('button', { name: 'Use' }).click();
    assert.equal(await page.getByLabel('Selector', { exact: true }).inputValue(), 'a#more-info');
    // The draft goes along, with the index of the action being edited: the inspector runs the actions before it.
    const body = asked as { targetHint: string; actionIndex: number; url?: string; task: { url: string; actions: Array<{ type: string }> } };
    assert.deepEqual([body.targetHint, body.actionIndex, body.url], ['More information', 1, undefined]);
    assert.equal(body.task.url, 'https://example.com/');
    assert.deepEqual(body.task.actions.map((a) => a.type), ['wait', 'click']);
    await page.getByLabel('Selector', { exact: true }).fill('#more');
    await page.unroute('**/api/inspector/highlight');
    assert.equal(await page.getByText('Unsaved changes').count(), 0);
  });

  it('lists the new task with its description, and search filters it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    const row = page.getByRole('row', { name: /Read the title/ });
    await row.waitFor();
    assert.match(await row.textContent() ?? '', /Reads the page title every morning/);
    assert.match(await row.textContent() ?? '', /agent/);
    await page.getByLabel('Search tasks').fill('nothing like this');
    await page.getByText('No task matches').waitFor();
    await page.getByLabel('Search tasks').fill('morning');
    await row.waitFor();
  });

  it('keeps versions: edit, save, then restore the earlier one', async () => {
    await page.getByRole('link', { name: 'Read the title' }).click();
    await page.getByLabel('Description').fill('Changed description');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Preview' }).first().click();
    await page.getByRole('region', { name: /Preview of the version/ }).getByText('Reads the page title every morning', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Restore' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('tab', { name: 'Canvas' }).click();
    assert.equal(await page.getByLabel('Description').inputValue(), 'Reads the page title every morning');
  });

  it('duplicates and deletes from the list', async () => {
    await page.getByRole('link', { name: '← Tasks' }).click();
    await page.getByRole('button', { name: 'Duplicate Read the title' }).click();
    await page.getByRole('link', { name: 'Read the title (copy)' }).waitFor();
    await page.getByRole('button', { name: 'Delete Read the title (copy)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('link', { name: 'Read the title (copy)' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('link', { name: 'Read the title', exact: true }).count(), 1);
  });

  it('logs out to the login screen, and logs in again', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByText('You are logged out.').waitFor();
    assert.equal((await page.context().cookies()).some((c) => c.name === 'taskloom_session'), false);
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').getByText('INVALID_CREDENTIALS').waitFor();
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
  });

  it('logged no page errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});

async function cookieHeader(page: Page): Promise<string> {
  return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/**
 * Page errors, console errors (CSP violations among them) and failed API answers are problems, except the
 * 401s of the session check and the 404s of endpoints other sessions have not built yet (shown as such).
 */
