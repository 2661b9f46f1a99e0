// What every dashboard test in real Chromium shares: the browser, the built bundle, and a watch for page errors.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Page } from 'playwright';
import { detectChromium } from '../../kernel/browser/index.js';

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
