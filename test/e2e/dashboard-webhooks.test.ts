// The dashboard's webhooks section in real Chromium: an endpoint added with its secret shown once (masked after a
// reload), a test event sent to a local receiver, the delivery in the log as delivered, and a redelivery.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../stand-ins/webhook-receiver.js';
import { CHROMIUM_ARGS, chromiumPath, dashboardSkipReason, watchProblems } from '../support/dashboard.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard webhooks: ${skip}`);

describe('dashboard: webhooks', { skip }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let receiver: WebhookReceiver;
  const problems: string[] = [];

  before(async () => {
    receiver = await startWebhookReceiver();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_POLL_MS: '100' });
    await setupAdmin(svc);
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: svc.baseUrl, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    watchProblems(page, problems);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    await receiver?.close();
  });

  it('adds an endpoint, shows its secret once, sends a test event, logs the delivery and redelivers it', async () => {
    const section = page.locator('#webhooks');
    await section.getByLabel('Endpoint URL').fill(`${receiver.url}/from-dashboard`);
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const field = section.getByRole('textbox', { name: /Signing secret: copy it now/ });
    await field.waitFor();
    const secret = await field.inputValue();
    assert.match(secret, /^whsec_/);
    await section.getByRole('button', { name: 'Done' }).click();
    await section.getByText(`${receiver.url}/from-dashboard`).waitFor();
    await section.getByText('secret ********').waitFor();

    await section.getByRole('button', { name: `Send a test event to ${receiver.url}/from-dashboard` }).click();
    const [hook] = await receiver.waitFor(1);
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(hook!.headers[h])]));
    assert.equal((new Webhook(secret).verify(JSON.stringify(hook!.body), headers) as { type: string }).type, 'webhook.test');

    const log = section.getByRole('table', { name: 'Webhook deliveries' });
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    for (let i = 0; i < 20 && (await row.locator('.status-delivered').count()) === 0; i++) {
      await section.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(300);
    }
    await row.locator('.status-delivered').waitFor();
    assert.match(await row.innerText(), new RegExp(receiver.url.replace(/[.]/g, '\\.')));

    await row.getByRole('button', { name: /^Redeliver / }).click();
    const hooks = await receiver.waitFor(2);
    assert.equal(hooks[1]!.headers['webhook-id'], hooks[0]!.headers['webhook-id'], 'the same webhook-id');

    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    await page.locator('#webhooks').getByText('secret ********').waitFor();
    assert.ok(!(await page.content()).includes(secret.slice(6)), 'the secret is not shown again');
    assert.deepEqual(problems, []);
  });
});
