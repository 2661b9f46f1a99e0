import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAiCompatibleAi, textOfChatCompletion, toChatCompletionBody } from '../../../providers/ai/openai-compatible/index.js';
import { aiContract } from '../../../testing/ai.contract.js';
import { startOpenAiStandIn, type ChatStandIn } from '../../stand-ins/openai.js';
import { CLOSED_ORIGIN, createAi, fixtureFactory, outboundFor } from './harness.js';

const KEY = 'sk-standin-openai-4f9b2c7d1e';

aiContract('openai-compatible', fixtureFactory({
  definition: openAiCompatibleAi,
  start: () => startOpenAiStandIn(),
  model: 'gpt-4o-mini',
  key: KEY,
  baseUrl: (standIn) => standIn.url,
  closedBaseUrl: `${CLOSED_ORIGIN}/v1`,
}));

describe('openai-compatible: Chat Completions specifics', () => {
  let gemini: ChatStandIn;
  const outbound = outboundFor(true);
  before(async () => { gemini = await startOpenAiStandIn({ basePath: '/v1beta/openai' }); });
  after(async () => {
    await outbound.client.close();
    await gemini.close();
  });

  it('sends the key as a Bearer token to {baseUrl}/chat/completions, below a path prefix as Gemini has', async () => {
    const provider = await createAi(openAiCompatibleAi, outbound);
    gemini.answer({ text: 'hi' });
    const answer = await provider.complete({
      system: 's', user: 'u', model: 'gemini-2.5-flash', apiKey: 'AIza-key-1', baseUrl: `${gemini.url}/`, timeoutMs: 5000,
    });
    assert.equal(answer, 'hi');
    const [sent] = gemini.requests;
    assert.equal(sent!.path, '/v1beta/openai/chat/completions');
    assert.equal(sent!.headers.authorization, 'Bearer AIza-key-1');
    assert.deepEqual(sent!.body.messages, [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }]);
    assert.equal(sent!.body.stream, undefined);
  });

  it('refuses a call without a key as an auth failure, sending nothing', async () => {
    const provider = await createAi(openAiCompatibleAi, outbound);
    const before = gemini.requests.length;
    await assert.rejects(provider.complete({ system: 's', user: 'u', model: 'm', baseUrl: gemini.url, timeoutMs: 1000 }), { kind: 'auth' });
    assert.equal(gemini.requests.length, before);
  });
});

describe('openai-compatible: translation', () => {
  it('builds a body with the system and user messages and a cap only when asked', () => {
    const base = { system: 's', user: 'u', model: 'm', timeoutMs: 1 };
    assert.deepEqual(toChatCompletionBody(base), { model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] });
    assert.equal(toChatCompletionBody({ ...base, maxTokens: 99 }).max_tokens, 99);
  });

  it('reads the first choice, joining content parts, and nothing from other shapes', () => {
    const of = (content: unknown) => ({ choices: [{ message: { role: 'assistant', content } }] });
    assert.equal(textOfChatCompletion(of(' a ')), 'a');
    assert.equal(textOfChatCompletion(of([{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }])), 'ab');
    for (const body of [of(null), of('  '), { choices: [] }, { choices: 'x' }, 'text', null, {}]) {
      assert.equal(textOfChatCompletion(body), undefined, JSON.stringify(body));
    }
  });
});
