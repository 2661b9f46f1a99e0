// What every dashboard test in real Chromium shares: the browser, the built bundle, and a watch for page errors.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright';
import { detectChromium } from '../../layers/browser-pool/index.js';
import { ADMIN } from './service.js';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];

export function chromiumPath(): string | undefined {
  try {
    return detectChromium({ configuredPath: process.env.BROWSER_EXECUTABLE_PATH });
  } catch {
    return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
  }
}

/** Builds web/dist when missing; answers why the suite cannot run, or undefined. */
export function dashboardSkipReason(options: { needsBrowser?: boolean } = {}): string | undefined {
  if (options.needsBrowser !== false && !chromiumPath()) return 'no Chromium found: install chromium or set BROWSER_EXECUTABLE_PATH';
  if (existsSync('web/dist/index.html')) return undefined;
  const build = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
  return build.status === 0 ? undefined : 'web/dist is missing and npm run build:web failed';
}

/** Collects page errors, console errors and unexpected failed API answers into `problems`. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    const status = response.status();
    if (status < 400 || (status === 401 && ['/api/auth/me', '/api/auth/login'].includes(pathname))) return;
    if (status === 404 && /^\/api\/(headful|schedules|inspector|browser)\//.test(pathname)) return;
    problems.push(`${response.request().method()} ${pathname} answered ${status}`);
  });
}

export interface DashboardSession {
  browser: Browser;
  page: Page;
  /** What `watchProblems` collected. */
  problems: string[];
}

/** Launches Chromium, opens `path` on the service and logs in as ADMIN (who must exist); waits for `heading`. */
export async function openDashboard(baseUrl: string, path: string, heading: string): Promise<DashboardSession> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 768 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  watchProblems(page, problems);
  await page.goto(path);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return { browser, page, problems };
}
