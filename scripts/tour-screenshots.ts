// The README's tour: screenshots of the editor, the overview, the executions list, a run's detail, the live view
// of a running run and the studio recording, in the light and the dark theme, taken from the real service with
// seeded tasks, runs and a capture, and a small shop page of its own that the live run and the studio open.
//
//   node --import tsx scripts/tour-screenshots.ts [outDir]     (default docs/tour; `npm run tour:screenshots`)
//
// test/scripts/tour-screenshots.test.ts runs it into a temporary folder and checks the images, so CI keeps it working.
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import type { ExecutionRecord } from '../kernel/contracts/records.js';
import { CHROMIUM_ARGS, chromiumPath } from '../test/support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../test/support/service.js';

export const THEMES = ['light', 'dark'] as const;
/** Each screen: a file name and how to reach it (after seeding). */
export const SCREENS = ['overview', 'executions', 'run-detail', 'editor', 'live-view', 'recorder'] as const;
const VIEWPORT = { width: 1200, height: 760 };

interface Seeded { taskId: string; runId: string }

const TASKS = [
  { name: 'Catalogue prices', description: 'Collects the name and price of every product card', actions: [
    { type: 'navigate', value: 'https://shop.example.com/catalogue?page={$page}' }, { type: 'wait_selector', selector: '.product-card' },
    { type: 'click', selector: 'button[data-testid="accept-cookies"]' }, { type: 'scroll', value: '1200' }, { type: 'screenshot' },
  ], variables: { page: '1' }, extractionScript: "return [...document.querySelectorAll('.product-card')].map((c) => ({ name: c.querySelector('h3').textContent, price: c.querySelector('.price').textContent }));" },
  { name: 'Stock alert', description: 'Checks whether the lamp is back in stock', actions: [{ type: 'wait_selector', selector: '#availability' }] },
  { name: 'Weekly report download', description: 'Logs in and downloads the weekly report', actions: [{ type: 'type', selector: '#email', value: '{$email}' }, { type: 'press', key: 'Enter' }] },
];
const PRODUCTS = [['Desk lamp', '€39.00'], ['Floor lamp', '€89.00'], ['Reading lamp', '€24.50'], ['Pendant light', '€64.00']];

/** A run of `task` started `hoursAgo` hours ago. */
function run(id: string, taskId: string, taskName: string, hoursAgo: number, status: ExecutionRecord['status'], trigger: ExecutionRecord['trigger']): ExecutionRecord {
  const startedAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
  const durationMs = 1800 + Math.round(hoursAgo * 37) % 2500;
  const failed = status === 'error';
  return {
    executionId: id, taskId, taskName, status, trigger, startedAt, durationMs,
    finishedAt: new Date(Date.parse(startedAt) + durationMs).toISOString(),
    result: {
      data: failed ? null : PRODUCTS.map(([name, price]) => ({ name, price })), finalUrl: 'https://shop.example.com/catalogue?page=1', title: 'Catalogue · Example Shop',
      captures: failed ? [] : [`${id}_1.png`], ...(failed ? { error: { message: 'Timed out after 10000 ms waiting for .product-card', actionIndex: 1 } } : {}),
    },
    logs: [
      { at: startedAt, level: 'info', message: 'navigate https://shop.example.com/catalogue?page=1', actionIndex: 0 },
      { at: startedAt, level: failed ? 'error' : 'info', message: failed ? 'Timed out after 10000 ms waiting for .product-card' : 'wait_selector .product-card', actionIndex: 1 },
      ...(failed ? [] : [{ at: startedAt, level: 'info' as const, message: 'screenshot saved', actionIndex: 4 }, { at: startedAt, level: 'info' as const, message: 'extracted 4 rows' }]),
    ],
  };
}

/**
 * The shop page the live run and the studio open (1280x720, fixed places): the search field (200, 90), Search
 * (450, 90); 0.7 s after a search, four cards whose "Add to cart" buttons sit at (164 + 300 i, 337); Checkout
 * (1175, 90) stays disabled, so a run clicking it waits there (the live view outlines it).
 */
const SHOP = `<!doctype html><html><head><meta charset="utf-8"><title>Example Shop</title><style>
  body{font:15px system-ui,sans-serif;margin:0;background:#f6f7f9;color:#223}header{background:#234;color:#fff;padding:16px 24px;font-weight:600;height:24px}
  .at{position:absolute;box-sizing:border-box;height:36px}input.at{left:24px;top:72px;width:360px;padding:0 10px;border:1px solid #99a;border-radius:6px;font:inherit}
  button{font:inherit;border-radius:6px;border:0;cursor:pointer}#go{left:396px;top:72px;width:110px;background:#2a6;color:#fff}
  #checkout{left:1100px;top:72px;width:150px;background:#ccd;color:#667}.card{position:absolute;top:130px;width:280px;height:240px;background:#fff;border-radius:10px;box-shadow:0 1px 4px #0002}
  .card .img{height:110px;margin:12px;border-radius:8px;background:linear-gradient(135deg,#fc6,#f96)}.card h3{margin:0 14px;font-size:16px}.card p{margin:4px 14px;color:#276}
  .card button{position:absolute;left:14px;bottom:16px;width:252px;height:34px;background:#234;color:#fff}</style></head><body>
  <header>Example Shop · Lamps</header>
  <input class="at" id="search" aria-label="Search lamps" placeholder="Search lamps">
  <button class="at" id="go" type="button">Search</button><button class="at" id="checkout" type="button" disabled>Checkout</button>
  <script>
    const items = ${JSON.stringify(PRODUCTS)};
    document.querySelector('#go').addEventListener('click', () => setTimeout(() => items.forEach(([name, price], i) => {
      const card = document.createElement('div');
      card.className = 'card';
      card.style.left = (24 + i * 300) + 'px';
      card.innerHTML = '<div class="img"></div><h3></h3><p></p><button type="button" data-testid="add-' + i + '">Add to cart</button>';
      card.querySelector('h3').textContent = name;
      card.querySelector('p').textContent = price;
      document.body.appendChild(card);
    }), 700));
  </script></body></html>`;

/** Serves the shop page on a local port. */
async function serveShop(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The live run: searches, adds a lamp, then waits at the disabled Checkout until cancelled. */
const LIVE_TASK = {
  name: 'Add a lamp to the cart', mode: 'agent', timeoutMs: 600_000, actions: [
    { type: 'type', selector: '#search', value: 'lamp' }, { type: 'click', selector: '#go' },
    { type: 'wait_selector', selector: '.card' }, { type: 'click', selector: '[data-testid="add-1"]' },
    { type: 'click', selector: '#checkout', timeoutMs: 600_000 },
  ],
};

/** Clicks the studio's live frame at a point of the page (its 1280x720 CSS pixels). */
async function clickFrame(page: Page, x: number, y: number): Promise<void> {
  const frame = page.locator('.live-frame img');
  const box = (await frame.boundingBox())!;
  const scale = box.width / 1280;
  await page.mouse.click(box.x + x * scale, box.y + y * scale);
}

/** Records in the studio: types a search, searches, and adds a lamp from the results that appear (a wait first). */
async function record(page: Page, shopUrl: string): Promise<void> {
  await page.getByLabel('Page URL').fill(shopUrl);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('.live-frame img').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Record' }).click();
  await page.getByRole('button', { name: 'Record', pressed: true }).waitFor();
  const recorded = page.locator('ol.recorded > li');
  await clickFrame(page, 200, 90);
  await page.keyboard.type('lamp');
  await clickFrame(page, 450, 90);
  await recorded.nth(1).waitFor({ timeout: 30_000 });
  // The cards come 0.7 s after the search: click where the button will be until the recorder has it.
  for (let i = 0; i < 40 && (await recorded.count()) < 4; i++) {
    await clickFrame(page, 464, 337);
    await page.waitForTimeout(500);
  }
  await recorded.nth(3).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(600); // the frame after the click
}

/** A small shop page, screenshotted as the run's capture. */
async function captureImage(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  const cards = PRODUCTS.map(([name, price]) => `<div class="card"><div class="img"></div><h3>${name}</h3><p>${price}</p></div>`).join('');
  await page.setContent(`<style>body{font:15px system-ui;margin:0;background:#f6f7f9}header{background:#234;color:#fff;padding:14px 20px;font-weight:600}
    main{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;padding:16px}.card{background:#fff;border-radius:8px;padding:10px;box-shadow:0 1px 3px #0002}
    .img{height:90px;border-radius:6px;background:linear-gradient(135deg,#fc6,#f96)}h3{font-size:14px;margin:8px 0 4px}p{margin:0;color:#276}</style>
    <header>Example Shop · Lamps</header><main>${cards}</main>`);
  const png = await page.screenshot();
  await page.close();
  return png;
}

async function seed(svc: TestService, apiKey: string, browser: Browser): Promise<Seeded> {
  const ids: string[] = [];
  for (const task of TASKS) {
    const created = await svc.request('POST', '/api/tasks', { apiKey, body: { url: 'https://shop.example.com/', mode: 'agent', ...task } });
    ids.push(created.body.id);
  }
  // A second save, so the editor has a version to compare.
  await svc.request('PATCH', `/api/tasks/${ids[0]}`, { apiKey, body: { timeoutMs: 60_000 } });
  await svc.request('POST', `/api/schedules/${ids[0]}`, { apiKey, body: { enabled: true, frequency: 'daily', hour: 7, minute: 30 } });
  await svc.request('POST', `/api/schedules/${ids[1]}`, { apiKey, body: { enabled: true, frequency: 'hourly', minute: 15 } });
  const store = svc.service.services.storage.executions;
  const statuses: Array<ExecutionRecord['status']> = ['success', 'success', 'success', 'error', 'success', 'success', 'timeout', 'success'];
  const triggers: Array<ExecutionRecord['trigger']> = ['schedule', 'api', 'dashboard'];
  let runId = '';
  for (let i = 0; i < 40; i++) {
    const t = i % TASKS.length;
    const id = `exe_tour${String(i).padStart(2, '0')}`;
    const record = run(id, ids[t]!, TASKS[t]!.name, 0.3 + i * 4.1, statuses[i % statuses.length]!, triggers[i % triggers.length]!);
    await store.insert(record);
    if (i === 0) runId = id;
  }
  await mkdir(path.join(svc.dataDir, 'captures'), { recursive: true });
  await writeFile(path.join(svc.dataDir, 'captures', `${runId}_1.png`), await captureImage(browser));
  return { taskId: ids[0]!, runId };
}

/** Takes every screen in every theme into `outDir`; resolves to the files written. */
export async function takeTourScreenshots(outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  // Private networks allowed: the live run and the studio open the shop page on this machine.
  const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
  const shop = await serveShop();
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const written: string[] = [];
  try {
    const { cookie, apiKey } = await setupAdmin(svc);
    const { taskId, runId } = await seed(svc, apiKey, browser);
    const live = await svc.request('POST', '/api/tasks', { apiKey, body: { url: shop.url, ...LIVE_TASK } });
    const started = await svc.request('POST', `/api/tasks/${live.body.id}/api`, { apiKey, headers: { prefer: 'respond-async' }, body: {} });
    const liveRunId: string = started.body.executionId;
    const [name, value] = cookie.split('=') as [string, string];
    const paths: Record<(typeof SCREENS)[number], [string, string]> = {
      overview: ['/overview', 'Overview'], executions: ['/executions', 'Executions'],
      'run-detail': [`/executions/${runId}`, TASKS[0]!.name], editor: [`/tasks/${taskId}`, TASKS[0]!.name],
      'live-view': [`/executions/${liveRunId}`, LIVE_TASK.name], recorder: ['/studio', 'Studio'],
    };
    for (const theme of THEMES) {
      await svc.request('POST', '/api/settings/theme', { apiKey, body: { theme } });
      const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: VIEWPORT, colorScheme: theme });
      await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }]);
      const page = await context.newPage();
      for (const screen of SCREENS) {
        const [url, heading] = paths[screen];
        await page.goto(url);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: 30_000 });
        await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
        if (screen === 'run-detail') await page.locator('img[alt^="Screenshot"]').first().evaluate((img: HTMLImageElement) => img.decode());
        if (screen !== 'run-detail') await page.locator('.loading').waitFor({ state: 'detached', timeout: 30_000 });
        if (screen === 'live-view') {
          await page.getByText('Now: action 5 (click)').waitFor({ timeout: 60_000 });
          await page.locator('.live-outline').waitFor({ timeout: 30_000 });
          // The panel's heading just below the sticky header.
          await page.getByRole('region', { name: 'Live view' }).evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 64));
        }
        if (screen === 'recorder') await record(page, shop.url);
        const file = path.join(outDir, `${screen}-${theme}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await svc.close(); // cancels the live run
    await shop.close();
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = await takeTourScreenshots(process.argv[2] ?? 'docs/tour');
  console.log(files.join('\n'));
}
