// AI provider keys in the dashboard: one action stores a key (Add saves it at once, says so, shows errors),
// removing asks and saves, and a typed key that was not added is not dropped without a warning.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSkipReason, openDashboard, type DashboardSession } from '../support/dashboard.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped dashboard AI keys: ${skip}`);

const KEY = 'sk-test-first-key-0123456789WXYZ';
const SECOND = 'sk-test-second-key-9876543210QRST';

describe('dashboard: AI provider keys', { skip }, () => {
  let svc: TestService;
  let dashboard: DashboardSession;
  let apiKey: string;

  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
    dashboard = await openDashboard(svc.baseUrl, '/settings', 'Settings');
  });
  after(async () => {
    await dashboard?.browser.close();
    await svc?.close();
  });

  const slot = (name: string) => dashboard.page.locator('.slot', { has: dashboard.page.getByRole('heading', { name }) });
  const stored = async (path: string) => (await svc.request('GET', `/api/settings/${path}`, { apiKey })).body;

  it('stores a key with one click on Add, says so, and shows it masked after a reload', async () => {
    const { page } = dashboard;
    const b = slot('Provider B (OpenAI)');
    await b.getByLabel('New Provider B (OpenAI) key').fill(KEY);
    await b.getByRole('button', { name: 'Add' }).click();
    await b.getByRole('status').getByText('Provider B (OpenAI) key added and saved.').waitFor();
    assert.deepEqual(await stored('provider-b-api-key'), { providerBApiKeys: ['****WXYZ'] });
    assert.equal(await b.getByLabel('New Provider B (OpenAI) key').inputValue(), '', 'the field is emptied');
    assert.equal(await b.getByRole('button', { name: /Save/ }).count(), 0, 'no second button to press');

    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await slot('Provider B (OpenAI)').getByRole('list').getByText('****WXYZ').waitFor();
    assert.equal((await page.content()).includes(KEY), false, 'the key is never shown whole');
  });

  it('adds a second key next to the first, and says when a key was already saved', async () => {
    const b = slot('Provider B (OpenAI)');
    await b.getByLabel('New Provider B (OpenAI) key').fill(SECOND);
    await b.getByRole('button', { name: 'Add' }).click();
    await b.getByRole('list').getByText('****QRST').waitFor();
    assert.deepEqual(await stored('provider-b-api-key'), { providerBApiKeys: ['****WXYZ', '****QRST'] });
    await b.getByLabel('New Provider B (OpenAI) key').fill(KEY);
    await b.getByRole('button', { name: 'Add' }).click();
    await b.getByRole('status').getByText('That key was already saved for Provider B (OpenAI).').waitFor();
    assert.deepEqual(await stored('provider-b-api-key'), { providerBApiKeys: ['****WXYZ', '****QRST'] });
  });

  it('shows the service\'s error and keeps the typed text when a key is refused', async () => {
    const d = slot('Provider D (self-hosted Ollama)');
    await d.getByLabel('New Provider D (self-hosted Ollama) address').fill('not a url');
    await d.getByRole('button', { name: 'Add' }).click();
    const alert = d.getByRole('alert');
    await alert.getByText('VALIDATION_ERROR').waitFor();
    assert.match(await alert.textContent() ?? '', /is not a URL/);
    assert.equal(await d.getByLabel('New Provider D (self-hosted Ollama) address').inputValue(), 'not a url');
    assert.deepEqual(await stored('provider-d-api-key'), { providerDApiKeys: [] });
    await d.getByLabel('New Provider D (self-hosted Ollama) address').fill('');
  });

  it('warns before leaving with a typed key that was not added', async () => {
    const { page } = dashboard;
    const a = slot('Provider A (Gemini)');
    await a.getByLabel('New Provider A (Gemini) key').fill('typed-but-not-added-1234');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    const question = page.getByRole('dialog', { name: 'Please confirm' });
    await question.getByText('The Provider A (Gemini) key you typed has not been added.').waitFor();
    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'hidden' }); // closed, so the next question is the only dialog
    assert.equal(new URL(page.url()).pathname, '/settings');
    assert.equal(await a.getByLabel('New Provider A (Gemini) key').inputValue(), 'typed-but-not-added-1234');
    await a.getByLabel('New Provider A (Gemini) key').fill('');
  });

  it('removes a key at once after asking', async () => {
    const b = slot('Provider B (OpenAI)');
    await b.getByRole('button', { name: 'Remove Provider B (OpenAI) entry 1' }).click();
    const question = dashboard.page.getByRole('dialog').filter({ hasText: 'Remove Provider B (OpenAI) key 1' });
    await question.getByRole('button', { name: 'Remove key' }).click();
    await b.getByRole('status').getByText('Provider B (OpenAI) key removed.').waitFor();
    assert.deepEqual(await stored('provider-b-api-key'), { providerBApiKeys: ['****QRST'] });
    // Nothing typed, nothing unsaved: leaving asks nothing.
    await dashboard.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await dashboard.page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
  });

  it('logged no page errors (the refused key\'s 400 aside)', () => {
    assert.deepEqual(dashboard.problems, ['POST /api/settings/provider-d-api-key answered 400']);
  });
});
