// Outcomes with real Chromium: a run on each bot-wall test page (test/fixtures/pages/anti-bot/, one per detection
// rule of layers/outcomes/anti-bot-rules.ts) ends error with outcome anti_bot and the rule in its message; pages
// that look alike but are no wall (a plain 403, a solved widget, a widget among content, a challenge that clears)
// end success; a stop action ends success with outcome stopped; a page whose renderer is killed ends crashed.
// Each outcome is stored, answered by GET /api/executions/{id}, filterable, and counted in the metrics.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { liveGroupMembers, waitFor } from '../../testing/browser/chromium-processes.js';
import { startAntiBotPages, type AntiBotPages } from '../support/anti-bot-pages.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

// Both engines: the rules run in the page, the crash reaches each engine's own page-crash event.
for (const engine of ['playwright', 'puppeteer'] as const) describe(`run outcomes (${engine})`, { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: AntiBotPages;
  let apiKey: string;

  before(async () => {
    pages = await startAntiBotPages();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: engine });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  async function createTask(path: string, extra: Record<string, unknown> = {}): Promise<string> {
    const task = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: path, mode: 'agent', url: `${pages.origin}/${path}`, actions: [], timeoutMs: 60_000, antiBot: { waitMs: 0 }, ...extra },
    });
    assert.equal(task.status, 200, task.text);
    return task.body.id as string;
  }

  /** Runs a task on `path` and resolves to its stored execution, as GET /api/executions/{id} answers it. */
  async function run(path: string, extra: Record<string, unknown> = {}) {
    const id = await createTask(path, extra);
    const answer = await svc.request('POST', `/api/tasks/${id}/api`, { apiKey });
    assert.equal(answer.status, 200, answer.text);
    const stored = await svc.request('GET', `/api/executions/${answer.body.executionId}`, { apiKey });
    assert.equal(stored.status, 200, stored.text);
    return stored.body;
  }

  const walls: Array<[string, RegExp]> = [
    ['forbidden-challenge.html?status=403', /answered 403 with "verify you are a human"/],
    ['forbidden-challenge.html?status=429', /answered 429 with/],
    ['just-a-moment.html', /a challenge page \(title "Just a moment\.\.\."\)/],
    ['recaptcha.html', /an unresolved recaptcha widget/],
    ['hcaptcha.html', /an unresolved hcaptcha widget/],
    ['turnstile.html', /an unresolved turnstile widget/],
    ['checking-browser.html', /the page says "Checking your browser"/],
  ];
  for (const [path, detail] of walls) {
    it(`ends anti_bot on ${path}`, async () => {
      const execution = await run(path, { actions: [{ type: 'wait_selector', selector: '#content', timeoutMs: 500 }] });
      assert.deepEqual([execution.status, execution.outcome], ['error', 'anti_bot'], JSON.stringify(execution.result));
      assert.match(execution.result.error.message, /^The site put up a bot wall: /);
      assert.match(execution.result.error.message, detail);
      assert.ok(execution.result.error.screenshot, 'a screenshot of the wall is kept');
      assert.ok(execution.logs.some((line: { message: string }) => /^bot wall: /.test(line.message)));
    });
  }

  it('a wall met where an action failed ends anti_bot with that action', async () => {
    const execution = await run('content.html', {
      actions: [{ type: 'navigate', value: `${pages.origin}/recaptcha.html` }, { type: 'click', selector: '#buy', timeoutMs: 300 }],
    });
    assert.deepEqual([execution.status, execution.outcome, execution.result.error.actionIndex], ['error', 'anti_bot', 1]);
  });

  it('pages that only look like walls end success', async () => {
    for (const path of ['forbidden-plain.html?status=403', 'recaptcha-solved.html', 'captcha-in-content.html', 'content.html']) {
      const execution = await run(path);
      assert.deepEqual([execution.status, execution.outcome], ['success', 'success'], `${path}: ${JSON.stringify(execution.result)}`);
    }
  });

  it('a challenge page that clears by itself within antiBot.waitMs is no wall', async () => {
    const execution = await run('clears.html', { antiBot: { waitMs: 15_000 }, extractionScript: 'return document.querySelector("#content")?.textContent;' });
    assert.deepEqual([execution.status, execution.outcome, execution.result.data], ['success', 'success', 'Products'], JSON.stringify(execution.result));
  });

  it('antiBot.detect false leaves walls undetected', async () => {
    const execution = await run('just-a-moment.html', { antiBot: { detect: false } });
    assert.deepEqual([execution.status, execution.outcome], ['success', 'success']);
  });

  it('a stop action ends success with outcome stopped', async () => {
    const execution = await run('content.html', { actions: [{ type: 'stop' }, { type: 'click', selector: '#never' }] });
    assert.deepEqual([execution.status, execution.outcome], ['success', 'stopped']);
  });

  it('a page whose renderer process is killed ends crashed', async () => {
    const id = await createTask('crash.html', { actions: [{ type: 'wait_selector', selector: '#never', timeoutMs: 50_000 }] });
    const answer = svc.request('POST', `/api/tasks/${id}/api`, { apiKey });
    await waitFor(() => pages.requests.includes('/crash.html'), 30_000, 'the run to open the page');
    const pid = svc.service.services.browser.browserPid();
    assert.ok(pid, 'a launched browser');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const renderers = liveGroupMembers(pid).filter((member) => {
      try {
        return readFileSync(`/proc/${member}/cmdline`, 'utf8').includes('--type=renderer');
      } catch {
        return false;
      }
    });
    assert.ok(renderers.length > 0, 'renderer processes to kill');
    for (const renderer of renderers) process.kill(renderer, 'SIGKILL');
    const ended = await answer;
    assert.equal(ended.status, 200, ended.text);
    const stored = (await svc.request('GET', `/api/executions/${ended.body.executionId}`, { apiKey })).body;
    assert.deepEqual([stored.status, stored.outcome], ['error', 'crashed'], JSON.stringify(stored.result));
    assert.match(stored.result.error.message, /crashed/);
  });

  it('outcomes are filterable and counted by the metrics', async () => {
    const walled = await svc.request('GET', '/api/executions/count?outcome=anti_bot', { apiKey });
    assert.equal(walled.body.total, walls.length + 1);
    const crashed = await svc.request('GET', '/api/executions/list?outcome=crashed', { apiKey });
    assert.equal(crashed.body.executions.length, 1);
    assert.equal(crashed.body.executions[0].outcome, 'crashed');
    const metrics = await svc.request('GET', '/api/metrics', { apiKey });
    assert.match(metrics.text, new RegExp(`taskloom_runs_total\\{status="error",outcome="anti_bot"\\} ${walls.length + 1}\\b`));
    assert.match(metrics.text, /taskloom_runs_total\{status="success",outcome="stopped"\} 1\b/);
    assert.match(metrics.text, /taskloom_runs_total\{status="error",outcome="crashed"\} 1\b/);
  });
});
