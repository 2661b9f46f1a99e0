import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoredAiProviderKeys } from '../../plugins/settings/decorators.js';
import { SETTINGS_KEYS } from '../../plugins/settings/keys.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

let svc: TestService;
let apiKey: string;
const api = (method: string, url: string, options: RequestOptions = {}) =>
  svc.request(method, `/api/settings${url}`, { apiKey, ...options });
const ok = async (method: string, url: string, body?: unknown) => {
  const res = await api(method, url, { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const storedKeys = async () =>
  (await svc.service.services.storage.settings.get<StoredAiProviderKeys>(SETTINGS_KEYS.aiProviderKeys)) ?? {};

const KEY_A1 = 'AIzaSyA-first-key-0001';
const KEY_A2 = 'AIzaSyA-second-key-0002';

before(async () => {
  svc = await startService();
  ({ apiKey } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

describe('settings: AI provider keys A to C', () => {
  it('answers an empty list for every slot at first', async () => {
    for (const slot of ['a', 'b', 'c', 'd']) {
      const field = `provider${slot.toUpperCase()}ApiKeys`;
      assert.deepEqual(await ok('GET', `/provider-${slot}-api-key`), { [field]: [] });
    }
  });

  it('saves keys and answers them masked as **** plus the last 4 characters, in GET and POST', async () => {
    const saved = await ok('POST', '/provider-a-api-key', { providerAApiKeys: [KEY_A1, KEY_A2] });
    assert.deepEqual(saved, { providerAApiKeys: ['****0001', '****0002'] });
    assert.deepEqual(await ok('GET', '/provider-a-api-key'), saved);
    assert.equal(JSON.stringify(saved).includes('first-key'), false);
    assert.deepEqual((await storedKeys()).providerA, [KEY_A1, KEY_A2], 'stored whole for the AI plugin');
  });

  it('keeps the stored key a masked entry stands for, in the order sent, and drops the ones left out', async () => {
    await ok('POST', '/provider-a-api-key', { providerAApiKeys: [KEY_A1, KEY_A2] });
    const reordered = await ok('POST', '/provider-a-api-key', { providerAApiKeys: ['****0002', 'sk-third-key-0003', '****0001'] });
    assert.deepEqual(reordered, { providerAApiKeys: ['****0002', '****0003', '****0001'] });
    assert.deepEqual((await storedKeys()).providerA, [KEY_A2, 'sk-third-key-0003', KEY_A1]);
    await ok('POST', '/provider-a-api-key', { providerAApiKeys: ['****0003'] });
    assert.deepEqual((await storedKeys()).providerA, ['sk-third-key-0003']);
  });

  it('tells two stored keys with the same last 4 characters apart by position', async () => {
    await ok('POST', '/provider-b-api-key', { providerBApiKeys: ['sk-one-9999', 'sk-two-9999'] });
    const round = await ok('POST', '/provider-b-api-key', { providerBApiKeys: (await ok('GET', '/provider-b-api-key')).providerBApiKeys });
    assert.deepEqual(round, { providerBApiKeys: ['****9999', '****9999'] });
    assert.deepEqual((await storedKeys()).providerB, ['sk-one-9999', 'sk-two-9999']);
  });

  it('refuses a masked entry that matches no stored key, changing nothing', async () => {
    await ok('POST', '/provider-c-api-key', { providerCApiKeys: ['sk-ant-key-abcd'] });
    const res = await api('POST', '/provider-c-api-key', { body: { providerCApiKeys: ['sk-ant-new-0000', '****zzzz'] } });
    assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR']);
    assert.match(res.body.details, /providerCApiKeys\.1/);
    assert.deepEqual((await storedKeys()).providerC, ['sk-ant-key-abcd']);
  });

  it('trims entries, drops blanks and duplicates, and never shows a short key', async () => {
    const res = await ok('POST', '/provider-c-api-key', { providerCApiKeys: ['  sk-ant-key-abcd ', '', 'sk-ant-key-abcd', 'short'] });
    assert.deepEqual(res, { providerCApiKeys: ['****abcd', '****'] });
    assert.deepEqual((await storedKeys()).providerC, ['sk-ant-key-abcd', 'short']);
    assert.deepEqual(await ok('POST', '/provider-c-api-key', { providerCApiKeys: [] }), { providerCApiKeys: [] });
  });

  it('keeps the slots apart', async () => {
    await ok('POST', '/provider-a-api-key', { providerAApiKeys: [KEY_A1] });
    await ok('POST', '/provider-b-api-key', { providerBApiKeys: ['sk-openai-key-bbbb'] });
    assert.deepEqual(await ok('GET', '/provider-a-api-key'), { providerAApiKeys: ['****0001'] });
    assert.deepEqual(await ok('GET', '/provider-b-api-key'), { providerBApiKeys: ['****bbbb'] });
  });

  it('refuses a body that is not an array of at most 20 strings of at most 1000 characters', async () => {
    const bad = [
      { providerAApiKeys: 'one-key-as-string' },
      { providerAApiKeys: [1, 2] },
      { providerAApiKeys: Array.from({ length: 21 }, (_, i) => `key-number-${i}`) },
      { providerAApiKeys: ['x'.repeat(1001)] },
      { providerBApiKeys: ['wrong field for slot A'] },
      {},
    ];
    for (const body of bad) {
      const res = await api('POST', '/provider-a-api-key', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body).slice(0, 80));
    }
    assert.equal((await ok('POST', '/provider-a-api-key', { providerAApiKeys: Array.from({ length: 20 }, (_, i) => `key-${'k'.repeat(990)}-${i}`) })).providerAApiKeys.length, 20);
  });
});

describe('settings: AI provider D endpoints', () => {
  const jsonEntry = JSON.stringify({ url: 'http://1.1.1.1:11434', model: 'qwen2.5' });

  it('stores plain URLs and JSON-encoded { url, model } entries and shows them whole', async () => {
    const saved = await ok('POST', '/provider-d-api-key', { providerDApiKeys: ['https://8.8.8.8:11434', jsonEntry] });
    assert.deepEqual(saved, { providerDApiKeys: ['https://8.8.8.8:11434', jsonEntry] });
    assert.deepEqual(await ok('GET', '/provider-d-api-key'), saved);
    assert.deepEqual((await storedKeys()).providerD, [
      { url: 'https://8.8.8.8:11434', entry: 'https://8.8.8.8:11434' },
      { url: 'http://1.1.1.1:11434', model: 'qwen2.5', entry: jsonEntry },
    ]);
  });

  it('accepts a JSON entry without a model (the providerD default model applies)', async () => {
    const entry = JSON.stringify({ url: 'http://9.9.9.9:11434' });
    await ok('POST', '/provider-d-api-key', { providerDApiKeys: [entry] });
    assert.deepEqual((await storedKeys()).providerD, [{ url: 'http://9.9.9.9:11434', entry }]);
  });

  it('refuses malformed entries with 400 VALIDATION_ERROR, changing nothing', async () => {
    await ok('POST', '/provider-d-api-key', { providerDApiKeys: [jsonEntry] });
    const malformed = ['{"url": ', '{"model": "llama3.2"}', '{"url": 5}', '{"url": "http://1.1.1.1", "model": ""}', '{"url": "http://1.1.1.1", "token": "x"}', 'not a url'];
    for (const entry of malformed) {
      const res = await api('POST', '/provider-d-api-key', { body: { providerDApiKeys: ['http://1.1.1.1:11434', entry] } });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], entry);
      assert.match(res.body.details, /providerDApiKeys\.1/, entry);
    }
    assert.deepEqual(await ok('GET', '/provider-d-api-key'), { providerDApiKeys: [jsonEntry] });
  });

  it('refuses private addresses and other schemes with 400 INVALID_URL, in plain and JSON entries', async () => {
    const refused = ['http://127.0.0.1:11434', 'http://localhost:11434', JSON.stringify({ url: 'http://10.0.0.5:11434', model: 'llama3.2' }), 'http://[::1]:11434', 'ftp://1.1.1.1'];
    for (const entry of refused) {
      const res = await api('POST', '/provider-d-api-key', { body: { providerDApiKeys: [entry] } });
      assert.deepEqual([res.status, res.body.error], [400, 'INVALID_URL'], entry);
    }
    assert.deepEqual(await ok('GET', '/provider-d-api-key'), { providerDApiKeys: [jsonEntry] });
  });

  it('accepts a local provider D with ALLOW_PRIVATE_NETWORKS=true', async () => {
    const open = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const { apiKey: key } = await setupAdmin(open);
      const entries = ['http://127.0.0.1:11434', JSON.stringify({ url: 'http://192.168.1.20:11434', model: 'llama3.2' })];
      const res = await open.request('POST', '/api/settings/provider-d-api-key', { apiKey: key, body: { providerDApiKeys: entries } });
      assert.deepEqual([res.status, res.body], [200, { providerDApiKeys: entries }]);
    } finally {
      await open.close();
    }
  });
});

describe('settings: AI models', () => {
  const DEFAULTS = { providerA: 'gemini-2.5-flash', providerB: 'gpt-4o-mini', providerC: 'claude-haiku-4-5', providerD: 'llama3.2' };

  it('answers the default models when none is set', async () => {
    assert.deepEqual(await ok('GET', '/ai-models'), DEFAULTS);
  });

  it('sets any subset, keeps the others and answers the full object', async () => {
    assert.deepEqual(await ok('POST', '/ai-models', { providerB: 'gpt-4.1-mini' }), { ...DEFAULTS, providerB: 'gpt-4.1-mini' });
    const both = await ok('POST', '/ai-models', { providerA: ' gemini-2.5-pro ', providerD: 'qwen2.5:7b' });
    assert.deepEqual(both, { ...DEFAULTS, providerA: 'gemini-2.5-pro', providerB: 'gpt-4.1-mini', providerD: 'qwen2.5:7b' });
    assert.deepEqual(await ok('POST', '/ai-models', {}), both);
    assert.deepEqual(await ok('GET', '/ai-models'), both);
  });

  it('refuses empty, blank, too long, non-string and unknown fields with 400 VALIDATION_ERROR', async () => {
    const before = await ok('GET', '/ai-models');
    for (const body of [{ providerA: '' }, { providerC: '   ' }, { providerB: 'm'.repeat(201) }, { providerD: 3 }, { providerE: 'x' }, { providerA: 'ok-model', providerC: null }]) {
      const res = await api('POST', '/ai-models', { body });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(body).slice(0, 60));
    }
    assert.deepEqual(await ok('GET', '/ai-models'), before);
  });
});

describe('settings: AI settings need authentication', () => {
  it('answers 401 to anonymous callers on every key and model route', async () => {
    const routes = svc.service.app.routeTable.filter((r) => /^\/api\/settings\/(provider-[a-d]-api-key|ai-models)$/.test(r.url) && r.method !== 'HEAD');
    assert.equal(routes.length, 10);
    for (const route of routes) {
      const res = await svc.request(route.method, route.url, { body: route.method === 'POST' ? {} : undefined });
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${route.method} ${route.url}`);
      assert.equal(route.auth, 'authenticated');
    }
  });
});
