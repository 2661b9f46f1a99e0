// CAPTCHA solving with real Chromium: CAPTCHA_SOLVER=task-api against the local stand-in of a solving service's
// task API. A task asking `antiBot.captcha: "solve"` has the reCAPTCHA gate (captcha-form.html) solved: the token
// goes into the widget and its callback, the site lets it through and the run succeeds. A token the site refuses
// leaves the widget unresolved: the run ends anti_bot and says the token was not accepted. Nothing is solved for a
// task that does not ask.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startAntiBotPages, type AntiBotPages } from '../support/anti-bot-pages.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { startCaptchaTaskApi, type CaptchaTaskApiStandIn } from '../stand-ins/captcha-task-api.js';

const chromium = chromiumOrSkip();

describe('CAPTCHA solving in runs', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: AntiBotPages;
  let solver: CaptchaTaskApiStandIn;
  let apiKey: string;

  before(async () => {
    pages = await startAntiBotPages();
    solver = await startCaptchaTaskApi({ processingPolls: 1, token: 'solved-token-1' });
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', CAPTCHA_SOLVER: 'task-api', CAPTCHA_API_KEY: solver.key, CAPTCHA_BASE_URL: solver.url });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await Promise.all([pages?.close(), solver?.close()]);
  });

  async function run(antiBot: Record<string, unknown>) {
    const task = await svc.request('POST', '/api/tasks', {
      apiKey, body: {
        name: 'gate', mode: 'agent', url: `${pages.origin}/captcha-form.html`, actions: [], timeoutMs: 90_000, antiBot: { waitMs: 0, ...antiBot },
        extractionScript: 'return document.querySelector("#content")?.textContent ?? null;',
      },
    });
    assert.equal(task.status, 200, task.text);
    const answer = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey });
    assert.equal(answer.status, 200, answer.text);
    return (await svc.request('GET', `/api/executions/${answer.body.executionId}`, { apiKey })).body;
  }
  const messages = (execution: { logs: Array<{ message: string }> }) => execution.logs.map((line) => line.message);

  it('a widget the solver solves lets the run through: the token reaches the site and the run succeeds', async () => {
    const execution = await run({ captcha: 'solve' });
    assert.deepEqual([execution.status, execution.outcome, execution.result.data], ['success', 'success', 'Products'], JSON.stringify(execution.result));
    assert.deepEqual(solver.tasks, [{ type: 'RecaptchaV2TaskProxyless', websiteURL: `${pages.origin}/captcha-form.html`, websiteKey: '6Lc-test-site-key-0000000000000000000000' }]);
    assert.ok(pages.requests.includes('/verify?token=solved-token-1'));
    assert.ok(messages(execution).includes('solving the recaptcha widget with the task-api CAPTCHA solver'));
    assert.ok(messages(execution).includes('the recaptcha widget was solved'));
    assert.ok(!JSON.stringify(execution).includes(solver.key), 'the solver key stays out of the record');
  });

  it('a token the site refuses leaves the widget unresolved, and the outcome says so', async () => {
    solver.token = 'a-wrong-token';
    try {
      const execution = await run({ captcha: 'solve' });
      assert.deepEqual([execution.status, execution.outcome], ['error', 'anti_bot']);
      assert.match(execution.result.error.message, /an unresolved recaptcha widget \(the task-api solver's token was not accepted\)$/);
      assert.ok(pages.requests.includes('/verify?token=a-wrong-token'));
    } finally {
      solver.token = 'solved-token-1';
    }
  });

  it('nothing is solved unless the task asks', async () => {
    const before = solver.tasks.length;
    const execution = await run({});
    assert.deepEqual([execution.status, execution.outcome], ['error', 'anti_bot']);
    assert.match(execution.result.error.message, /an unresolved recaptcha widget$/);
    assert.equal(solver.tasks.length, before);
  });
});
