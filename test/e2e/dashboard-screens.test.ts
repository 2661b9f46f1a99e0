// Screenshots of every dashboard screen in a dark and a light theme, for a reviewer to look at:
// written to .tmp/dashboard-screenshots/<theme>/<screen>.png (git-ignored) on every test run.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason } from '../support/dashboard.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../support/service.js';

const SCREENSHOT_DIR = path.resolve('.tmp/dashboard-screenshots');

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard screenshots: ${skip}`);

describe('dashboard screenshots in a dark and a light theme', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let taskId: string;
  let executionId: string;

  before(async () => {
    svc = await startService();
    const { apiKey } = await setupAdmin(svc);
    const task = await svc.request('POST', '/api/tasks', {
      apiKey,
      body: {
        name: 'Product prices', description: 'Collects the title and price of every product card', url: 'https://shop.example.com/catalogue', mode: 'agent',
        variables: { category: 'books' },
        actions: [
          { type: 'navigate', value: 'https://shop.example.com/catalogue/{$category}' },
          { type: 'wait_selector', selector: '.product-card', timeoutMs: 5000 },
          { type: 'foreach', selector: '.product-card' },
          { type: 'click', selector: '.product-card .details' },
          { type: 'end' },
          { type: 'screenshot', value: 'full', disabled: true },
        ],
        extractionScript: 'return [...document.querySelectorAll(".product-card")].map((c) => ({ title: c.querySelector("h3").textContent }))',
      },
    });
    taskId = task.body.id;
    await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'Read the headline', url: 'https://news.example.org', mode: 'scrape', actions: [] } });
    executionId = 'exec_screens1';
    const at = new Date().toISOString();
    await svc.service.services.storage.executions.insert({
      executionId, taskId, taskName: 'Product prices', status: 'success', trigger: 'dashboard', startedAt: at, finishedAt: at, durationMs: 2345,
      result: { data: [{ title: 'Dune', price: 9.99 }, { title: 'Emma', price: 4.5 }], finalUrl: 'https://shop.example.com/catalogue/books', title: 'Books', captures: [] },
      logs: [{ at, level: 'info', message: 'navigate https://shop.example.com/catalogue/books', actionIndex: 0 }, { at, level: 'info', message: 'finished: success in 2345 ms' }],
    });
    await svc.request('POST', '/api/settings/proxies', { apiKey, body: { server: 'http://93.184.215.14:3128', label: 'Office gateway', username: 'ada', password: 'secret' } });

    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: { width: 1366, height: 768 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'login.png') });
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  for (const theme of ['dark', 'light']) {
    it(`writes every screen in the ${theme} theme`, async () => {
      const dir = path.join(SCREENSHOT_DIR, theme);
      await mkdir(dir, { recursive: true });
      await svc.request('POST', '/api/settings/theme', { apiKey: await key(svc), body: { theme } });
      const screens: Array<[string, string, (() => Promise<void>)?]> = [
        ['tasks', '/tasks'],
        ['editor-canvas', `/tasks/${taskId}`, async () => { await page.locator('.action-title').nth(1).click(); }],
        ['editor-json', `/tasks/${taskId}`, async () => { await page.getByRole('tab', { name: 'JSON' }).click(); }],
        ['editor-schedule', `/tasks/${taskId}`, async () => { await page.getByRole('tab', { name: 'Schedule' }).click(); await page.waitForTimeout(600); }],
        ['editor-runs', `/tasks/${taskId}`, async () => { await page.getByRole('tab', { name: 'Runs' }).click(); await page.locator('.executions-table').waitFor(); }],
        ['editor-code', `/tasks/${taskId}`, async () => { await page.getByRole('tab', { name: 'Use from code' }).click(); }],
        ['overview', '/overview'],
        ['executions', '/executions'],
        ['execution-detail', `/executions/${executionId}`],
        ['captures', '/captures'],
        ['settings', '/settings'],
        ['headful', '/headful'],
      ];
      for (const [name, url, prepare] of screens) {
        await page.goto(url);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
        if (prepare) await prepare();
        const file = path.join(dir, `${name}.png`);
        await page.screenshot({ path: file, fullPage: name === 'settings' });
        assert.ok(statSync(file).size > 5000, `${file} was written`);
      }
    });
  }
});

let apiKeyCache: string | undefined;
async function key(svc: TestService): Promise<string> {
  if (apiKeyCache) return apiKeyCache;
  const login = await svc.request('POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('taskloom_session='))!.split(';')[0]!;
  apiKeyCache = (await svc.request('POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
  return apiKeyCache;
}
