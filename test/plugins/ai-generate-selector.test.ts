// POST /api/tasks/generate-selector: validation and errors on the real service (no browser layer yet), and the
// whole path with a stand-in `app.pageCapture` whose page matches only the selectors it knows.
import assert from 'node:assert/strict';
import fp from 'fastify-plugin';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../kernel/config.js';
import { definePlugin, Registry } from '../../kernel/registry.js';
import { createService } from '../../kernel/server.js';
import { plugins, providers } from '../../app/built-ins.js';
import type { PageCapture } from '../../plugins/runs/decorators.js';
import type { ChatStandIn } from '../stand-ins/chat-server.js';
import { startOpenAiStandIn } from '../stand-ins/openai.js';
import { makeTempDir, request, setupAdmin, startService, type TestService } from '../support/service.js';

const PAGE = '<html><head><script>var secret = 1;</script></head><body><form id="login"><input name="email" placeholder="Email">' +
  '<button class="btn primary" type="submit">Sign in</button></form><svg><path d="M0 0L10 10"/></svg></body></html>';
/** Plugins that cannot load without the runs plugin (they use its `runs` decorator). */
const NEED_RUNS = new Set(['schedules', 'studio']);
/** The built-ins without the named plugin (and, without runs, those that need it), plus `extra`. */
function registryWithout(name: string, ...extra: NonNullable<typeof plugins>): Registry {
  const registry = new Registry();
  const left = (plugins ?? []).filter((p) => p.name !== name && !(name === 'runs' && NEED_RUNS.has(p.name)));
  registry.addModule({ providers, plugins: [...left, ...extra] });
  return registry;
}

const task = { url: 'https://example.com/login', actions: [{ type: 'navigate', value: 'https://example.com/login' }, { type: 'click', selector: '#x' }] };
const body = { task, actionIndex: 1, prompt: 'the sign-in button' };

describe('POST /api/tasks/generate-selector without a browser layer', () => {
  let svc: TestService;
  let apiKey: string;
  const call = (payload: unknown) => svc.request('POST', '/api/tasks/generate-selector', { apiKey, body: payload });
  before(async () => {
    svc = await startService({}, undefined, { registry: registryWithout('runs') });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => { await svc.close(); });

  it('answers 400 VALIDATION_ERROR naming a missing or mistyped field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ actionIndex: 0, prompt: 'p' }, /body\.task/],
      [{ task, prompt: 'p' }, /body\.actionIndex/],
      [{ task, actionIndex: 0 }, /body\.prompt/],
      [{ ...body, prompt: '  ' }, /body\.prompt/],
      [{ ...body, actionIndex: -1 }, /body\.actionIndex/],
      [{ ...body, actionIndex: 1.5 }, /body\.actionIndex/],
      [{ ...body, task: { actions: [] } }, /body\.task\.url/],
      [{ ...body, task: { url: 'https://example.com' } }, /body\.task\.actions/],
      [{ ...body, actionIndex: 3 }, /actionIndex is 3 but the task has 2 actions/],
    ];
    for (const [payload, details] of cases) {
      const res = await call(payload);
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(payload));
      assert.match(res.body.details, details);
    }
  });

  it('answers 400 NO_AI_PROVIDER without keys, then 500 AI_FAILED saying the browser layer is missing', async () => {
    const none = await call(body);
    assert.deepEqual([none.status, none.body.error], [400, 'NO_AI_PROVIDER']);
    const saved = await svc.request('POST', '/api/settings/provider-b-api-key', { apiKey, body: { providerBApiKeys: ['sk-unused-key-1234'] } });
    assert.equal(saved.status, 200);
    const res = await call(body);
    assert.deepEqual([res.status, res.body.error], [500, 'AI_FAILED']);
    assert.match(res.body.details, /the browser layer is not available/);
  });
});

describe('POST /api/tasks/generate-selector with a page capture', () => {
  let A: ChatStandIn;
  let B: ChatStandIn;
  let baseUrl: string;
  let close: () => Promise<void>;
  let apiKey: string;
  const log = { captured: [] as number[], closed: 0, checked: [] as string[], fail: false };
  const capture: PageCapture = {
    async capture(_task, actionIndex) {
      if (log.fail) throw new Error('navigation to https://example.com/login timed out');
      log.captured.push(actionIndex);
      return {
        html: PAGE,
        matches: async (selector) => { log.checked.push(selector); return ['button.primary', '#login button'].includes(selector) ? 1 : 0; },
        close: async () => { log.closed++; },
      };
    },
  };
  const fakeBrowser = definePlugin({
    name: 'fake-page-capture',
    plugin: fp(async (app) => { app.decorate('pageCapture', capture); }, { name: 'fake-page-capture' }),
  });
  const call = (payload: unknown) => request(baseUrl, 'POST', '/api/tasks/generate-selector', { apiKey, body: payload });

  before(async () => {
    [A, B] = await Promise.all([startOpenAiStandIn(), startOpenAiStandIn()]);
    const dir = await makeTempDir();
    // The fake comes last, as a browser plugin registered after the AI plugin would.
    const registry = registryWithout('runs', fakeBrowser);
    const config = loadConfig({
      LOG_LEVEL: 'silent', DATA_DIR: dir, ALLOW_PRIVATE_NETWORKS: 'true', PROVIDER_A_BASE_URL: A.url, PROVIDER_B_BASE_URL: B.url,
    });
    const service = await createService(config, { registry });
    baseUrl = (await service.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    close = () => service.close();
    ({ apiKey } = await setupAdmin({ request: (method, url, options) => request(baseUrl, method, url, options) } as TestService));
    for (const [slot, key] of [['a', 'AIza-sel-key-a-1111'], ['b', 'sk-sel-key-b-2222']]) {
      const res = await request(baseUrl, 'POST', `/api/settings/provider-${slot}-api-key`, { apiKey, body: { [`provider${slot!.toUpperCase()}ApiKeys`]: [key] } });
      assert.equal(res.status, 200, res.text);
    }
  });
  after(async () => {
    await close();
    await Promise.all([A.close(), B.close()]);
  });
  beforeEach(() => {
    A.reset();
    B.reset();
    Object.assign(log, { captured: [], closed: 0, checked: [], fail: false });
  });

  it('refuses a selector that matches nothing in favour of the next provider\'s, and closes the page once', async () => {
    A.answer({ text: 'The selector is `#signin`.' });
    B.answer({ text: '```css\nbutton.primary\n```' });
    const res = await call(body);
    assert.deepEqual([res.status, res.body], [200, { selector: 'button.primary' }], res.text);
    assert.deepEqual(log.checked, ['#signin', 'button.primary']);
    assert.deepEqual([log.captured, log.closed], [[1], 1]);
    const sent = JSON.stringify(A.requests[0]!.body);
    assert.match(sent, /the sign-in button/);
    assert.match(sent, /<button class=\\"btn primary\\" type=\\"submit\\">Sign in<\/button>/);
    assert.ok(!sent.includes('secret') && !sent.includes('M0 0'), 'scripts and SVG paths are dropped');
  });

  it('answers 500 AI_FAILED when no provider\'s selector matches, listing the refusals', async () => {
    A.answer({ text: '#nope' });
    B.answer({ text: 'div.missing' });
    const res = await call(body);
    assert.deepEqual([res.status, res.body.error], [500, 'AI_FAILED']);
    assert.match(res.body.details, /#nope matches no element.*div\.missing matches no element/s);
    assert.equal(log.closed, 1);
  });

  it('answers 500 AI_FAILED when the page cannot be captured, asking no provider', async () => {
    log.fail = true;
    const res = await call(body);
    assert.deepEqual([res.status, res.body.error], [500, 'AI_FAILED']);
    assert.match(res.body.details, /DOM extraction failed: navigation to .* timed out/);
    assert.equal(A.requests.length + B.requests.length, 0);
  });
});
