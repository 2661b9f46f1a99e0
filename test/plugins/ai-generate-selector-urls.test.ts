// POST /api/tasks/generate-selector with the real browser layer: a task URL or navigate action that is not a
// URL, or that the outbound rule refuses, is the caller's mistake: 400 INVALID_URL saying which and why, never
// 500. The private-address refusal of a navigate action is shown on the page capture itself, with a guard
// that lets the local test pages through but no other loopback address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBrowserPool, createMemoryCookieStore } from '../../layers/browser-pool/index.js';
import { Errors } from '../../kernel/errors.js';
import { createOutboundGuard } from '../../kernel/outbound/index.js';
import type { KernelServices } from '../../kernel/services.js';
import { createPageCapture } from '../../plugins/runs/page-capture.js';
import { createPlaywrightDriver } from '../../providers/browser/playwright/index.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { silentLogger } from '../../testing/loggers.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

async function serviceWithAiKey(env: Record<string, string>): Promise<{ svc: TestService; apiKey: string }> {
  const svc = await startService(env);
  const { apiKey } = await setupAdmin(svc);
  const saved = await svc.request('POST', '/api/settings/provider-b-api-key', { apiKey, body: { providerBApiKeys: ['sk-unused-key-1234'] } });
  assert.equal(saved.status, 200, saved.text);
  return { svc, apiKey };
}

describe('generate-selector: task URLs refused with 400 (ALLOW_PRIVATE_NETWORKS=false)', () => {
  let svc: TestService;
  let apiKey: string;
  before(async () => { ({ svc, apiKey } = await serviceWithAiKey({})); });
  after(async () => { await svc?.close(); });

  const cases: Array<[string, RegExp]> = [
    ['not a url', /^body\.task\.url: URL is not valid/],
    ['http://127.0.0.1:9/login?token=x', /^body\.task\.url: host 127\.0\.0\.1 is a loopback address; set ALLOW_PRIVATE_NETWORKS=true/],
    ['http://10.1.2.3/', /^body\.task\.url: host 10\.1\.2\.3 is a private address/],
    ['http://localhost:8080/', /^body\.task\.url: host localhost is the local machine/],
    ['file:///etc/passwd', /^body\.task\.url: scheme file is not allowed/],
  ];
  for (const [url, details] of cases) {
    it(`answers 400 INVALID_URL for ${url}, before any browser starts`, async () => {
      const res = await svc.request('POST', '/api/tasks/generate-selector', {
        apiKey, body: { task: { url, actions: [{ type: 'click', selector: '#x' }] }, actionIndex: 0, prompt: 'the button' },
      });
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_URL'], res.text);
      assert.match(res.body.details, details);
      assert.ok(!res.body.details.includes('token=x'), 'the query is not echoed');
      assert.equal(svc.service.services.browser.browserPid(), undefined);
    });
  }
});

describe('generate-selector: navigate actions that are not http(s) URLs', { skip: chromium.skip }, () => {
  let svc: TestService;
  let apiKey: string;
  let pages: PagesServer;
  before(async () => {
    pages = await startPagesServer();
    ({ svc, apiKey } = await serviceWithAiKey({ ALLOW_PRIVATE_NETWORKS: 'true' }));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  for (const [value, details] of [
    ['ftp://files.example/x', /^body\.task\.actions\[1\]: Action 2 \(navigate\): only http and https URLs can be visited, not ftp:/],
    ['http://[::1', /^body\.task\.actions\[1\]: Action 2 \(navigate\): "http:\/\/\[::1" is not a valid URL/],
  ] as const) {
    it(`answers 400 INVALID_URL naming the action for ${value}`, async () => {
      const task = { url: `${pages.origin}/`, actions: [{ type: 'click', selector: '#increment' }, { type: 'navigate', value }, { type: 'click', selector: '#x' }] };
      const res = await svc.request('POST', '/api/tasks/generate-selector', { apiKey, body: { task, actionIndex: 2, prompt: 'the button' } });
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_URL'], res.text);
      assert.match(res.body.details, details);
      assert.equal(svc.service.services.browser.openContexts(), 0, 'the capture\'s context is closed');
    });
  }
});

describe('page capture: a navigate action to a private address, with the rule on', { skip: chromium.skip }, () => {
  let pages: PagesServer;
  let browser: ReturnType<typeof createBrowserPool>;
  before(async () => {
    pages = await startPagesServer();
    browser = createBrowserPool({
      driver: createPlaywrightDriver(), config: { browserExecutablePath: chromium.path }, logger: silentLogger,
      cookieStore: createMemoryCookieStore(),
    });
  });
  after(async () => {
    await browser?.close();
    await pages?.close();
  });

  it('rejects with INVALID_URL naming the action and why; the context is closed', async () => {
    // The test pages (127.0.0.1) are let through; 127.0.0.2 is loopback like any other private address.
    const guard = createOutboundGuard({ allowPrivateNetworks: false, allowAddress: (ip) => ip === '127.0.0.1' });
    const services = { outbound: { guard }, browser } as unknown as KernelServices;
    const capture = createPageCapture({ services, chooseProxy: async () => null, logger: silentLogger });
    const port = new URL(pages.origin).port;
    const task = { url: `${pages.origin}/`, actions: [{ type: 'navigate', value: `http://127.0.0.2:${port}/?key=s3cret` }, { type: 'click', selector: '#x' }] };
    await assert.rejects(capture.capture(task, 1), (error: unknown) => {
      assert.ok(Errors.INVALID_URL.is(error), String(error));
      assert.match(error.message, new RegExp(`^body\\.task\\.actions\\[0\\]: Action 1 \\(navigate\\): Navigation to http://127\\.0\\.0\\.2:${port}/ ` +
        'was refused: host 127\\.0\\.0\\.2 is a loopback address; set ALLOW_PRIVATE_NETWORKS=true to allow it$'));
      return true;
    });
    assert.equal(browser.openContexts(), 0);
  });
});
