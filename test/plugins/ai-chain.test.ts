// The provider chain with the real providers and client libraries against one stand-in per slot.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { StoredAiProviderKeys } from '../../plugins/settings/decorators.js';
import { AiChainFailure, createAiChain, type AiQuestion } from '../../plugins/ai/chain.js';
import type { SlotBinding } from '../../plugins/ai/plan.js';
import { anthropicAi } from '../../providers/ai/anthropic/index.js';
import { ollamaAi } from '../../providers/ai/ollama/index.js';
import { openAiCompatibleAi } from '../../providers/ai/openai-compatible/index.js';
import { startAnthropicStandIn } from '../stand-ins/anthropic.js';
import type { ChatBehaviour, ChatStandIn } from '../stand-ins/chat-server.js';
import { startOllamaStandIn } from '../stand-ins/ollama.js';
import { startOpenAiStandIn } from '../stand-ins/openai.js';
import { arrived } from '../../testing/ai.contract.js';
import { createAi, outboundFor, recordingLogger } from '../providers/ai/harness.js';

const KEYS = { A: ['AIza-key-a1-111', 'AIza-key-a2-222', 'AIza-key-a3-333'], B: ['sk-key-b1-444'], C: ['sk-ant-key-c1-555'] };
const ALL_KEYS = [...KEYS.A, ...KEYS.B, ...KEYS.C];

let A: ChatStandIn, B: ChatStandIn, C: ChatStandIn, D: ChatStandIn;
let bindings: SlotBinding[];
const outbound = outboundFor(true);
const logger = recordingLogger();
let stored: StoredAiProviderKeys = {};
let models: Record<string, string> = {};
const settings = {
  get: async <V>(key: string) => (key === 'settings.aiProviderKeys' ? stored : key === 'settings.aiModels' ? models : undefined) as V,
};
const chain = (attemptTimeoutMs = 5000) => createAiChain({ bindings, settings, logger, attemptTimeoutMs });
const question = (accept: AiQuestion<string>['accept'] = (answer) => ({ ok: true, value: answer })): AiQuestion<string> =>
  ({ system: 'sys', user: 'usr', accept });
const everyKey = () => {
  stored = {
    providerA: KEYS.A, providerB: KEYS.B, providerC: KEYS.C,
    providerD: [{ url: D.url, entry: D.url }, { url: D.url, model: 'qwen2.5', entry: 'json' }],
  };
};
/** Which slot stand-in got each request, in order, with the key it carried. */
const seen = () => [A, B, C, D].flatMap((s, i) => s.requests.map((r) => ({ slot: 'ABCD'[i]!, key: r.key, model: r.model })));

before(async () => {
  [A, B, C, D] = await Promise.all([startOpenAiStandIn({ basePath: '/v1beta/openai' }), startOpenAiStandIn(), startAnthropicStandIn(), startOllamaStandIn()]);
  const openAi = await createAi(openAiCompatibleAi, outbound);
  bindings = [
    { slot: 'A', provider: openAi, baseUrl: A.url },
    { slot: 'B', provider: openAi, baseUrl: B.url },
    { slot: 'C', provider: await createAi(anthropicAi, outbound), baseUrl: C.url },
    { slot: 'D', provider: await createAi(ollamaAi, outbound) },
  ];
});
after(async () => {
  await outbound.client.close();
  await Promise.all([A, B, C, D].map((s) => s.close()));
});
beforeEach(() => {
  for (const s of [A, B, C, D]) s.reset();
  logger.lines.length = 0;
  models = {};
  everyKey();
});

describe('AI chain', () => {
  it('tries slots in the order A, B, C, D and every key of a slot before the next slot', async () => {
    for (const s of [A, B, C]) s.fallback = 500;
    D.answer({ text: 'from D' });
    const answer = await chain().ask(question());
    assert.deepEqual([answer.value, answer.slot, answer.keyIndex, answer.provider], ['from D', 'D', 0, 'ollama']);
    assert.deepEqual(seen().map((r) => r.key ?? r.slot), [...KEYS.A, ...KEYS.B, ...KEYS.C, 'D']);
    assert.deepEqual(logger.lines.map((line) => /slot: '(\w)'/.exec(line)?.[1]).join(''), 'AAABCD');
  });

  const failovers: [string, ChatBehaviour][] = [['401', 401], ['403', 403], ['429', 429], ['500', 500], ['503', 503],
    ['a timeout', 'hang'], ['a dropped connection', 'drop'], ['a garbage answer', 'garbage'], ['a request error (400)', 400]];
  for (const [name, behaviour] of failovers) {
    it(`moves to the next key on ${name}`, async () => {
      A.forKey(KEYS.A[0]!, behaviour);
      A.forKey(KEYS.A[1]!, { text: 'second key' });
      const answer = await chain(400).ask(question());
      assert.deepEqual([answer.value, answer.keyIndex], ['second key', 1]);
      await arrived(A, 2);
      assert.match(logger.lines[0]!, /outcome: 'failed'/);
    });
  }

  it('moves to the next slot when every key of a slot fails, and reaches an unreachable D entry\'s neighbour', async () => {
    stored = { providerB: KEYS.B, providerD: [{ url: 'http://127.0.0.1:9', entry: 'x' }, { url: D.url, entry: D.url }] };
    B.fallback = 429;
    D.answer({ text: 'second D' });
    const answer = await chain().ask(question());
    assert.deepEqual([answer.slot, answer.keyIndex, answer.value], ['D', 1, 'second D']);
  });

  it('skips slots without keys', async () => {
    stored = { providerC: KEYS.C };
    C.answer({ text: 'c' });
    assert.equal((await chain().ask(question())).slot, 'C');
    assert.deepEqual([A, B, D].map((s) => s.requests.length), [0, 0, 0]);
  });

  it('moves on when accept() refuses an answer, and keeps the refusals for the failure', async () => {
    A.fallback = { text: 'not this' };
    B.answer({ text: 'this' });
    const accept = (answer: string) => (answer === 'this' ? { ok: true as const, value: answer.toUpperCase() } : { ok: false as const, reason: 'wrong' });
    const answer = await chain().ask(question(accept));
    assert.deepEqual([answer.value, answer.slot], ['THIS', 'B']);
    assert.equal(logger.lines.filter((line) => /outcome: 'rejected'/.test(line)).length, 3);
  });

  it('uses the models of the settings, a D entry\'s own model winning, and the defaults otherwise', async () => {
    models = { providerA: 'gemini-custom' };
    for (const s of [A, B, C, D]) s.fallback = 500;
    await assert.rejects(chain().ask(question()), AiChainFailure);
    const byModel = seen().map((r) => `${r.slot}:${r.model}`);
    assert.deepEqual([...new Set(byModel)], ['A:gemini-custom', 'B:gpt-4o-mini', 'C:claude-haiku-4-5', 'D:llama3.2', 'D:qwen2.5']);
  });

  it('fails with every attempt listed and no key anywhere in the failure or the log', async () => {
    for (const s of [A, B, C, D]) s.fallback = 401;
    const failure = await chain().ask(question()).then(() => undefined, (e: unknown) => e);
    assert.ok(failure instanceof AiChainFailure);
    assert.equal(failure.attempts.length, 7);
    assert.ok(failure.attempts.every((a) => a.outcome === 'failed' && a.kind === 'auth' && a.retryable === true));
    assert.match(failure.message, /^A key 1 \(gemini-2\.5-flash\): .*401/);
    const everything = failure.message + JSON.stringify(failure.attempts) + logger.lines.join('\n');
    for (const key of ALL_KEYS) assert.ok(!everything.includes(key), `${key} leaked`);
    for (const line of logger.lines) assert.match(line, /slot: '\w'.*provider: '[\w-]+'.*keyIndex: \d.*model: '.+'.*outcome: '\w+'.*ms: \d+/s);
  });

  it('answers NO_AI_PROVIDER when no slot has a key', async () => {
    stored = { providerA: [], providerD: [] };
    await assert.rejects(chain().plan(), { code: 'NO_AI_PROVIDER', statusCode: 400 });
    await assert.rejects(chain().ask(question()), { code: 'NO_AI_PROVIDER' });
  });

  it('stops at once when the caller aborts, asking no further key', async () => {
    A.fallback = 'hang';
    const controller = new AbortController();
    const pending = chain().ask({ ...question(), signal: controller.signal });
    await arrived(A, 1);
    controller.abort();
    const failure = await pending.then(() => undefined, (e: unknown) => e);
    assert.ok(failure instanceof AiChainFailure);
    assert.deepEqual(failure.attempts.map((a) => a.outcome), ['cancelled']);
    assert.equal(seen().length, 1);
  });

  it('stops when accept() throws, passing its error on', async () => {
    const boom = new Error('the page is gone');
    await assert.rejects(chain().ask(question(() => { throw boom; })), boom);
    assert.equal(seen().length, 1);
  });
});
