// A person in the loop, with real Chromium: a run meets a page asking for a one-time code
// (test/fixtures/pages/second-factor/code.html, task option antiBot.onSecondFactor: "pause") and waits with outcome
// awaiting_human; the event stream carries the handoff link; a second Playwright browser opens it as a person
// would, clicks into the live view and types the code (the page's keys go through the DevTools Input domain),
// presses Resume; the run ends success in the same context, and the cookie the site set during the pause is stored.
// The link then answers 410 (single use), as the page's Resume does. A `pause_for_human` action nobody resumes
// ends error / stopped; one resumed through `POST /api/executions/{id}/resume` ends success. The second-factor rule
// (layers/outcomes/second-factor.ts) on its test pages: a named code field pauses, a card security code does not.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright';
import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import { redactQuery } from '../../kernel/http/query-redaction.js';
import { startWebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { COOKIE_JAR_KEY } from '../../plugins/data/index.js';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason, openDashboard } from '../support/dashboard.js';
import { startAntiBotPages } from '../support/anti-bot-pages.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const DIR = fileURLToPath(new URL('../fixtures/pages/second-factor/', import.meta.url));
const skip = dashboardSkipReason();
if (skip) console.log(`skipping the handoff tests: ${skip}`);

describe('a person in the loop', { skip }, () => {
  let svc: TestService;
  let apiKey: string;
  let pages: Server;
  let origin: string;
  const requests: string[] = [];
  let person: Browser;

  before(async () => {
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://pages');
      requests.push(url.pathname);
      if (url.pathname === '/entered') {
        res.writeHead(200, { 'set-cookie': 'mfa=passed; Max-Age=3600; Path=/', 'content-type': 'text/plain' }).end('ok');
        return;
      }
      void readFile(path.join(DIR, path.basename(url.pathname))).then(
        (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
        () => res.writeHead(404).end('no such page'),
      );
    });
    pages.listen(0, '127.0.0.1');
    await once(pages, 'listening');
    origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    person = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await person?.close();
    await svc?.close();
    pages?.closeAllConnections();
    await new Promise((resolve) => pages?.close(resolve));
  });

  async function createTask(body: Record<string, unknown>): Promise<string> {
    const task = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'handoff', mode: 'agent', timeoutMs: 60_000, actions: [], ...body } });
    assert.equal(task.status, 200, task.text);
    return task.body.id as string;
  }

  async function startRun(taskId: string): Promise<string> {
    const started = await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey, headers: { prefer: 'respond-async' }, body: { statelessExecution: false } });
    assert.equal(started.status, 202, started.text);
    return started.body.executionId as string;
  }

  /** Reads the run's event stream until its `awaiting_human` event, and resolves to that event's data. */
  async function awaitingEvent(executionId: string): Promise<Record<string, string>> {
    const controller = new AbortController();
    const response = await fetch(`${svc.baseUrl}/api/executions/${executionId}/events`, { headers: { 'x-api-key': apiKey }, signal: controller.signal });
    assert.equal(response.status, 200);
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of response.body!) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        const found = /event: awaiting_human\ndata: (.*)\n/.exec(text);
        if (found) return JSON.parse(found[1]!) as Record<string, string>;
        assert.ok(!text.includes('event: result'), `the run ended without waiting: ${text.slice(-600)}`);
      }
    } finally {
      controller.abort();
    }
    throw new Error('the event stream ended without awaiting_human');
  }

  async function finished(executionId: string) {
    for (let i = 0; i < 600; i++) {
      const record = await svc.request('GET', `/api/executions/${executionId}`, { apiKey });
      if (record.body.status !== 'running' && record.body.status !== 'queued') return record.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${executionId} did not end`);
  }

  it('hands the page to a person, who types the code in the live view and resumes; the cookies stay', async () => {
    const taskId = await createTask({
      url: `${origin}/code.html`, antiBot: { onSecondFactor: 'pause', waitMs: 0 },
      actions: [{ type: 'wait_selector', selector: '#welcome', timeoutMs: 10_000 }],
    });
    const executionId = await startRun(taskId);
    const event = await awaitingEvent(executionId);
    assert.equal(event.reason, 'second_factor');
    assert.match(event.handoffPath!, new RegExp(`^/api/studio/handoff/${executionId}\\?token=[A-Za-z0-9_-]{40,}$`));
    assert.doesNotMatch(redactQuery(event.handoffPath!), /token=[A-Za-z0-9]/, 'the request log leaves the token out');

    const paused = await svc.request('GET', `/api/executions/${executionId}`, { apiKey });
    assert.deepEqual([paused.body.status, paused.body.outcome], ['running', 'awaiting_human']);
    assert.match(paused.body.awaitingHuman.message, /one-time code/);
    const token = event.handoffPath!.split('token=').pop()!;
    assert.ok(!paused.text.includes(token), 'the token is not on the record');
    assert.ok(paused.body.logs.every((line: { message: string }) => !line.message.includes(token)), 'nor in the log');

    // The person: a browser of its own, no dashboard login.
    const context = await person.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const opened = await page.goto(`${svc.baseUrl}${event.handoffPath}`);
    assert.equal(opened?.status(), 200);
    const shown = new URL(page.url());
    assert.deepEqual([shown.pathname, shown.search], [`/api/studio/handoff/${executionId}`, ''], 'the token left the address bar');
    await page.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).naturalWidth > 0, undefined, { timeout: 30_000 });
    const screen = page.locator('#screen');
    const box = (await screen.boundingBox())!;
    const natural = await screen.evaluate((img: HTMLImageElement) => img.naturalWidth);
    const scale = box.width / natural;
    await page.mouse.click(box.x + 60 * scale, box.y + 40 * scale); // inside #code (20..260, 20..60 in the page)
    await page.keyboard.type('424242', { delay: 30 });
    for (let i = 0; i < 200 && !requests.includes('/entered'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(requests.includes('/entered'), 'the code typed in the live view reached the page');
    await page.click('#resume');
    await page.waitForFunction(() => document.getElementById('resume')!.dataset.done === 'resumed', undefined, { timeout: 10_000 });
    // The person's view closes with the pause: the run goes on out of their sight.
    await page.waitForFunction(() => document.getElementById('resume')!.dataset.closed === 'true', undefined, { timeout: 10_000 });

    const record = await finished(executionId);
    assert.deepEqual([record.status, record.outcome], ['success', 'success'], JSON.stringify(record.result));
    assert.equal(record.awaitingHuman, undefined);
    assert.ok(record.logs.some((line: { message: string }) => line.message === 'resumed by a person'));
    const jar = (await svc.service.services.storage.settings.get<BrowserCookie[]>(COOKIE_JAR_KEY)) ?? [];
    assert.ok(jar.some((cookie) => cookie.name === 'mfa' && cookie.value === 'passed'), 'the cookie set during the pause is stored');

    // Single use: the link, the page and its Resume are refused now.
    const again = await fetch(`${svc.baseUrl}${event.handoffPath}`, { redirect: 'manual' });
    assert.equal(again.status, 410);
    assert.equal((await page.goto(`${svc.baseUrl}/api/studio/handoff/${executionId}`))?.status(), 410);
    const resumeAgain = await page.evaluate(async (id) => (await fetch(`/api/studio/handoff/${id}/resume`, { method: 'POST' })).status, executionId);
    assert.equal(resumeAgain, 410);
    const api = await svc.request('POST', `/api/executions/${executionId}/resume`, { apiKey });
    assert.deepEqual([api.status, api.body.error], [409, 'EXECUTION_NOT_PAUSED']);
    await context.close();
  });

  it('a link works once: a second browser is refused while the run still waits', async (t) => {
    const taskId = await createTask({ url: `${origin}/no-prompt.html`, actions: [{ type: 'pause_for_human', value: 'Look at it', timeoutMs: 60_000 }] });
    const hooks = await startWebhookReceiver();
    t.after(() => hooks.close());
    const subscribed = await svc.request('POST', '/api/webhooks', { apiKey, body: { url: `${hooks.url}/events`, events: ['execution.awaiting_human'], taskIds: [taskId] } });
    assert.equal(subscribed.status, 200, subscribed.text);
    const executionId = await startRun(taskId);
    const event = await awaitingEvent(executionId);
    assert.equal(event.reason, 'action');
    // The webhook subscription gets the same event, with the same link.
    const [hook] = await hooks.waitFor(1, 30_000);
    assert.deepEqual([hook!.body.type, hook!.body.data.executionId, hook!.body.data.message, hook!.body.data.handoffPath],
      ['execution.awaiting_human', executionId, 'Look at it', event.handoffPath]);
    const first = await fetch(`${svc.baseUrl}${event.handoffPath}`, { redirect: 'manual' });
    assert.equal(first.status, 200);
    assert.match(first.headers.get('set-cookie') ?? '', /taskloom_handoff=.*HttpOnly/i);
    const second = await fetch(`${svc.baseUrl}${event.handoffPath}`, { redirect: 'manual' });
    assert.deepEqual([second.status, (await second.json()).error], [410, 'HANDOFF_ENDED']);
    const noCookie = await fetch(`${svc.baseUrl}/api/studio/handoff/${executionId}/resume`, { method: 'POST' });
    assert.equal(noCookie.status, 410, 'resume from the page needs its cookie');
    assert.equal((await svc.request('POST', `/api/executions/${executionId}/resume`)).status, 401, 'the API needs its auth');

    // A new link (the dashboard's button) works once too, and the API resumes the run.
    const fresh = await svc.request('POST', `/api/executions/${executionId}/handoff`, { apiKey });
    assert.equal(fresh.status, 200, fresh.text);
    assert.notEqual(fresh.body.handoffPath, event.handoffPath);
    assert.equal((await fetch(`${svc.baseUrl}${fresh.body.handoffPath}`, { redirect: 'manual' })).status, 200);
    const resumed = await svc.request('POST', `/api/executions/${executionId}/resume`, { apiKey });
    assert.deepEqual([resumed.status, resumed.body], [200, { success: true, status: 'running' }]);
    const record = await finished(executionId);
    assert.deepEqual([record.status, record.outcome], ['success', 'success'], JSON.stringify(record.result));
  });

  it('the dashboard shows a waiting run: its message, a handoff view that opens, and Resume', async () => {
    const taskId = await createTask({ url: `${origin}/no-prompt.html`, actions: [{ type: 'pause_for_human', value: 'Check the basket', timeoutMs: 120_000 }] });
    const executionId = await startRun(taskId);
    await awaitingEvent(executionId);
    const { browser, page, problems } = await openDashboard(svc.baseUrl, `/executions/${executionId}`, 'handoff');
    try {
      const panel = page.getByRole('status', { name: 'Waiting for a person' });
      await panel.waitFor();
      assert.match(await panel.innerText(), /Waiting for a person: Check the basket/);
      const [view] = await Promise.all([page.context().waitForEvent('page'), panel.getByRole('button', { name: 'Open the handoff view' }).click()]);
      await view.waitForURL(new RegExp(`/api/studio/handoff/${executionId}$`));
      await view.locator('#resume').click();
      await view.waitForFunction(() => document.getElementById('resume')!.dataset.done === 'resumed');
      await panel.waitFor({ state: 'detached', timeout: 30_000 });
      const record = await finished(executionId);
      assert.deepEqual([record.status, record.outcome], ['success', 'success']);
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  });

  it('a bot wall pauses the run with antiBot.onWall "pause"; resumed with the wall still there, it ends anti_bot', async () => {
    const walls = await startAntiBotPages();
    try {
      const taskId = await createTask({ url: `${walls.origin}/recaptcha.html`, antiBot: { onWall: 'pause', waitMs: 0 } });
      const executionId = await startRun(taskId);
      const event = await awaitingEvent(executionId);
      assert.equal(event.reason, 'anti_bot');
      assert.match(event.message!, /an unresolved recaptcha widget/);
      assert.equal((await svc.request('POST', `/api/executions/${executionId}/resume`, { apiKey })).status, 200);
      const record = await finished(executionId);
      assert.deepEqual([record.status, record.outcome], ['error', 'anti_bot'], JSON.stringify(record.result));
    } finally {
      await walls.close();
    }
  });

  it('the time a run waits does not count against its timeoutMs', async () => {
    const taskId = await createTask({ url: `${origin}/no-prompt.html`, timeoutMs: 8000, actions: [{ type: 'pause_for_human', value: 'Wait', timeoutMs: 60_000 }] });
    const executionId = await startRun(taskId);
    await awaitingEvent(executionId);
    await new Promise((resolve) => setTimeout(resolve, 9000)); // longer than the whole run may take
    assert.equal((await svc.request('POST', `/api/executions/${executionId}/resume`, { apiKey })).status, 200);
    const record = await finished(executionId);
    assert.deepEqual([record.status, record.outcome], ['success', 'success'], JSON.stringify(record.result));
  });

  it('a pause nobody resumes in time ends error / stopped', async () => {
    const taskId = await createTask({ url: `${origin}/no-prompt.html`, actions: [{ type: 'pause_for_human', value: 'Nobody comes', timeoutMs: 1500 }] });
    const answer = await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey });
    assert.equal(answer.status, 200, answer.text);
    const record = (await svc.request('GET', `/api/executions/${answer.body.executionId}`, { apiKey })).body;
    assert.deepEqual([record.status, record.outcome, record.result.error.actionIndex], ['error', 'stopped', 0]);
    assert.match(record.result.error.message, /No one resumed the run within 2 s \(it waited for a person: Nobody comes\)/);
  });

  it('the second-factor rule: a named code field pauses, a card security code does not', async () => {
    const named = await svc.request('POST', `/api/tasks/${await createTask({ url: `${origin}/otp-named.html`, antiBot: { onSecondFactor: 'pause', pauseMs: 1000 } })}/api`, { apiKey });
    const namedRecord = (await svc.request('GET', `/api/executions/${named.body.executionId}`, { apiKey })).body;
    assert.deepEqual([namedRecord.status, namedRecord.outcome], ['error', 'stopped']);
    assert.ok(namedRecord.logs.some((line: { message: string }) => line.message === 'second-factor prompt: a field for a code ("otp") (rule code-field)'));
    const plain = await svc.request('POST', `/api/tasks/${await createTask({ url: `${origin}/no-prompt.html`, antiBot: { onSecondFactor: 'pause', pauseMs: 1000 } })}/api`, { apiKey });
    assert.equal(plain.body.status, 'success', plain.text);
  });
});
