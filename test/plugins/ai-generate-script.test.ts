// POST /api/tasks/generate-script on a real server whose slots A to D point at local stand-ins.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startAnthropicStandIn } from '../stand-ins/anthropic.js';
import type { ChatStandIn } from '../stand-ins/chat-server.js';
import { startOllamaStandIn } from '../stand-ins/ollama.js';
import { startOpenAiStandIn } from '../stand-ins/openai.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const KEY_A1 = 'AIza-http-key-a1-9d8c';
const KEY_A2 = 'AIza-http-key-a2-7b6a';
const KEY_B = 'sk-http-key-b1-5e4f';
const KEY_C = 'sk-ant-http-key-c1-3c2d';
const SECRETS = [KEY_A1, KEY_A2, KEY_B, KEY_C];

let svc: TestService;
let apiKey: string;
let A: ChatStandIn, B: ChatStandIn, C: ChatStandIn, D: ChatStandIn;
const call = (body: unknown, options: RequestOptions = {}) =>
  svc.request('POST', '/api/tasks/generate-script', { apiKey, body, ...options });
const saveKeys = async (slot: string, keys: string[]) => {
  const res = await svc.request('POST', `/api/settings/provider-${slot}-api-key`, { apiKey, body: { [`provider${slot.toUpperCase()}ApiKeys`]: keys } });
  assert.equal(res.status, 200, res.text);
};
const noSecretIn = (text: string) => { for (const key of SECRETS) assert.ok(!text.includes(key), `${key} leaked: ${text}`); };

before(async () => {
  [A, B, C, D] = await Promise.all([startOpenAiStandIn({ basePath: '/v1beta/openai' }), startOpenAiStandIn(), startAnthropicStandIn(), startOllamaStandIn()]);
  svc = await startService({
    ALLOW_PRIVATE_NETWORKS: 'true', PROVIDER_A_BASE_URL: A.url, PROVIDER_B_BASE_URL: B.url, PROVIDER_C_BASE_URL: C.url,
  });
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => {
  await svc.close();
  await Promise.all([A, B, C, D].map((s) => s.close()));
});
beforeEach(() => { for (const s of [A, B, C, D]) s.reset(); });

describe('POST /api/tasks/generate-script', () => {
  it('answers 400 NO_AI_PROVIDER while no slot has a key', async () => {
    const res = await call({ description: 'the page title' });
    assert.deepEqual([res.status, res.body.error], [400, 'NO_AI_PROVIDER']);
    assert.match(res.body.details, /settings/);
  });

  it('answers 400 VALIDATION_ERROR for a missing, empty, blank or mistyped description, before looking at keys', async () => {
    for (const body of [{}, { description: '' }, { description: '   ' }, { description: 42 }, { description: 'x', extra: 1 }]) {
      const res = await call(body);
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body));
      assert.match(res.body.details, /body\.(description|extra)/);
    }
  });

  it('asks for credentials like every protected endpoint', async () => {
    const res = await svc.request('POST', '/api/tasks/generate-script', { body: { description: 'x' } });
    assert.equal(res.status, 401);
  });

  it('answers the first provider\'s script with its code fences and prose stripped', async () => {
    await saveKeys('a', [KEY_A1, KEY_A2]);
    await saveKeys('b', [KEY_B]);
    await saveKeys('c', [KEY_C]);
    A.answer({ text: 'Here it is:\n```javascript\nreturn document.title;\n```\nThis returns the title.' });
    const res = await call({ description: 'the page title' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { script: 'return document.title;' });
    const [sent] = A.requests;
    assert.deepEqual([sent!.path, sent!.headers.authorization, sent!.model], ['/v1beta/openai/chat/completions', `Bearer ${KEY_A1}`, 'gemini-2.5-flash']);
    assert.match(JSON.stringify(sent!.body), /the page title/);
  });

  it('fails over across keys of a slot, then across slots when an answer does not parse', async () => {
    A.forKey(KEY_A1, 429);
    A.forKey(KEY_A2, { text: 'function ( {' });
    B.answer({ text: '```js\nconst rows = [...document.querySelectorAll("li")];\nreturn rows.map((li) => li.textContent);\n```' });
    const res = await call({ description: 'list items' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.script, /^const rows = .*\nreturn rows\.map/s);
    assert.deepEqual(A.requests.map((r) => r.key), [KEY_A1, KEY_A2]);
    assert.equal(B.requests[0]!.key, KEY_B);
  });

  it('uses the model settings and reaches provider D when A to C fail', async () => {
    const models = await svc.request('POST', '/api/settings/ai-models', { apiKey, body: { providerB: 'gpt-custom' } });
    assert.equal(models.status, 200, models.text);
    const dEntry = JSON.stringify({ url: D.url, model: 'qwen2.5-coder' });
    const saved = await svc.request('POST', '/api/settings/provider-d-api-key', { apiKey, body: { providerDApiKeys: [dEntry] } });
    assert.equal(saved.status, 200, saved.text);
    for (const s of [A, B, C]) s.fallback = 500;
    D.answer({ text: 'return 1;' });
    const res = await call({ description: 'one' });
    assert.deepEqual([res.status, res.body], [200, { script: 'return 1;' }]);
    assert.equal(B.requests[0]!.model, 'gpt-custom');
    assert.equal(D.requests[0]!.model, 'qwen2.5-coder');
  });

  it('answers 502 AI_PROVIDERS_FAILED when every provider fails, naming each attempt and no key', async () => {
    A.fallback = 401;
    B.fallback = 'garbage';
    C.fallback = { text: 'I cannot help with that.' };
    D.fallback = 503;
    const res = await call({ description: 'anything' });
    assert.deepEqual([res.status, res.body.error], [502, 'AI_PROVIDERS_FAILED']);
    assert.match(res.body.details, /A key 1 .*401.*A key 2.*B key 1.*C key 1 .*answer refused.*D key 1/s);
    noSecretIn(res.text);
  });
});
