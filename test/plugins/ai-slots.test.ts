import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../kernel/config.js';
import { AI_CONTRACT_VERSION, type AiProvider } from '../../kernel/contracts/ai.js';
import { defineProvider } from '../../kernel/contracts/provider.js';
import { Registry } from '../../kernel/registry.js';
import { createAiSlots } from '../../kernel/capabilities.js';
import { checkConfig } from '../../kernel/module-config.js';
import { planAttempts, readAiSettings, type SlotBinding } from '../../plugins/ai/plan.js';
import { baseUrlOf, GEMINI_OPENAI_BASE_URL, slotBindings } from '../../plugins/ai/slots.js';
import { providers } from '../../app/built-ins.js';
import { outboundFor, recordingLogger } from '../providers/ai/harness.js';

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent', ...env });
const fake = (id: string): AiProvider => ({ id, complete: async () => 'x' });

/** The slots as the service binds them: the kernel creates each slot's provider, the AI plugin binds them in order. */
async function createSlotBindings(registry: Registry, env: Record<string, string> = {}) {
  const configured = config(env);
  checkConfig(configured, registry);
  registry.configure({ config: configured, logger: recordingLogger(), outbound: outboundFor(true), signal: new AbortController().signal });
  return slotBindings({ config: configured, ai: await createAiSlots(registry, configured.aiSlots) });
}

describe('AI slots: configuration', () => {
  it('binds A and B to openai-compatible, C to anthropic and D to ollama unless TASKLOOM_AI_SLOTS says otherwise', () => {
    assert.deepEqual(config().aiSlots, { A: 'openai-compatible', B: 'openai-compatible', C: 'anthropic', D: 'ollama' });
    assert.deepEqual(config({ TASKLOOM_AI_SLOTS: '{"C":" my-claude "}' }).aiSlots.C, 'my-claude');
  });

  it('stops start-up with one line naming TASKLOOM_AI_SLOTS for a bad value', () => {
    for (const value of ['{', '[]', '"A"', '{"E":"x"}', '{"toString":"x"}', '{"A":""}', '{"A":5}']) {
      assert.throws(() => config({ TASKLOOM_AI_SLOTS: value }), (e: unknown) => e instanceof ConfigError && /^Invalid configuration: TASKLOOM_AI_SLOTS /.test(e.message), value);
    }
  });

  it('gives slot A Gemini\'s endpoint only while the OpenAI-compatible adapter serves it, and PROVIDER_*_BASE_URL wins', () => {
    assert.equal(baseUrlOf('A', 'openai-compatible', config()), GEMINI_OPENAI_BASE_URL);
    assert.equal(baseUrlOf('A', 'my-gemini', config()), undefined);
    assert.equal(baseUrlOf('B', 'openai-compatible', config()), undefined, 'the SDK default: api.openai.com');
    assert.equal(baseUrlOf('A', 'openai-compatible', config({ PROVIDER_A_BASE_URL: 'http://a.test/v1' })), 'http://a.test/v1');
    assert.equal(baseUrlOf('C', 'anthropic', config({ PROVIDER_C_BASE_URL: 'http://c.test' })), 'http://c.test');
    assert.equal(baseUrlOf('D', 'ollama', config()), undefined);
  });

  it('creates one instance per provider id and lets a third-party provider take a slot', async () => {
    const registry = new Registry();
    registry.addModule({ providers });
    let created = 0;
    registry.addProvider(defineProvider({ capability: 'ai', id: 'my-claude', contractVersion: AI_CONTRACT_VERSION, create: async () => { created++; return fake('my-claude'); } }));
    const bindings = await createSlotBindings(registry, { TASKLOOM_AI_SLOTS: '{"C":"my-claude"}' });
    assert.deepEqual(bindings.map((b) => `${b.slot}:${b.provider.id}`), ['A:openai-compatible', 'B:openai-compatible', 'C:my-claude', 'D:ollama']);
    assert.equal(bindings[0]!.provider, bindings[1]!.provider);
    assert.equal(created, 1);
  });

  it('refuses a slot bound to a provider no module registers, naming the known ones', async () => {
    const registry = new Registry();
    registry.addModule({ providers });
    await assert.rejects(createSlotBindings(registry, { TASKLOOM_AI_SLOTS: '{"B":"nope"}' }),
      /slot B to AI provider "nope".*known: openai-compatible, anthropic, ollama/);
  });
});

describe('AI slots: planning', () => {
  const bindings: SlotBinding[] = [
    { slot: 'A', provider: fake('o'), baseUrl: 'http://a' }, { slot: 'B', provider: fake('o') },
    { slot: 'C', provider: fake('c') }, { slot: 'D', provider: fake('d') },
  ];

  it('lists every key of each slot in order, skipping slots without keys, with the models of the settings', async () => {
    const stored: Record<string, unknown> = {
      'settings.aiProviderKeys': { providerA: ['a1', 'a2'], providerC: [], providerD: [{ url: 'http://d1', entry: 'http://d1' }, { url: 'http://d2', model: 'qwen', entry: '{}' }] },
      'settings.aiModels': { providerA: 'gemini-x' },
    };
    const settings = await readAiSettings({ get: async <V>(key: string) => stored[key] as V });
    const plan = planAttempts(bindings, settings).map(({ slot, keyIndex, model, apiKey, baseUrl }) => ({ slot, keyIndex, model, apiKey, baseUrl }));
    assert.deepEqual(plan, [
      { slot: 'A', keyIndex: 0, model: 'gemini-x', apiKey: 'a1', baseUrl: 'http://a' },
      { slot: 'A', keyIndex: 1, model: 'gemini-x', apiKey: 'a2', baseUrl: 'http://a' },
      { slot: 'D', keyIndex: 0, model: 'llama3.2', apiKey: undefined, baseUrl: 'http://d1' },
      { slot: 'D', keyIndex: 1, model: 'qwen', apiKey: undefined, baseUrl: 'http://d2' },
    ]);
  });

  it('plans nothing when nothing was ever saved', async () => {
    assert.deepEqual(planAttempts(bindings, await readAiSettings({ get: async () => undefined })), []);
  });
});
