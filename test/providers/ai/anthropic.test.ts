import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { anthropicAi, DEFAULT_MAX_TOKENS, textOfMessage, toMessagesBody } from '../../../providers/ai/anthropic/index.js';
import { aiContract } from '../../../testing/ai.contract.js';
import { startAnthropicStandIn, type ChatStandIn } from '../../stand-ins/anthropic.js';
import { CLOSED_ORIGIN, createAi, fixtureFactory, outboundFor } from './harness.js';

const KEY = 'sk-ant-standin-83e1d0a9f2';

aiContract('anthropic', fixtureFactory({
  definition: anthropicAi,
  start: startAnthropicStandIn,
  model: 'claude-haiku-4-5',
  key: KEY,
  baseUrl: (standIn) => standIn.url,
  closedBaseUrl: CLOSED_ORIGIN,
}));

describe('anthropic: Messages specifics', () => {
  let standIn: ChatStandIn;
  const outbound = outboundFor(true);
  before(async () => { standIn = await startAnthropicStandIn(); });
  after(async () => {
    await outbound.client.close();
    await standIn.close();
  });

  it('sends the key once (x-api-key, or a Bearer token as SDK 1.x does) with an anthropic-version, the system prompt top-level', async () => {
    const provider = await createAi(anthropicAi, outbound);
    standIn.answer({ text: '#login' });
    assert.equal(await provider.complete({ system: 's', user: 'u', model: 'claude-haiku-4-5', apiKey: KEY, baseUrl: standIn.url, timeoutMs: 5000 }), '#login');
    const [sent] = standIn.requests;
    assert.equal(sent!.path, '/v1/messages');
    const carriers = [sent!.headers['x-api-key'], sent!.headers.authorization].filter((value) => value !== undefined);
    assert.equal(carriers.length, 1, 'the key travels in one header');
    assert.equal(sent!.key, KEY);
    assert.match(String(sent!.headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(sent!.body.system, 's');
    assert.deepEqual(sent!.body.messages, [{ role: 'user', content: 'u' }]);
    assert.equal(sent!.body.max_tokens, DEFAULT_MAX_TOKENS);
  });
});

describe('anthropic: translation', () => {
  it('caps the answer, by default or as asked', () => {
    const base = { system: 's', user: 'u', model: 'm', timeoutMs: 1 };
    assert.equal(toMessagesBody(base).max_tokens, DEFAULT_MAX_TOKENS);
    assert.equal(toMessagesBody({ ...base, maxTokens: 10 }).max_tokens, 10);
  });

  it('joins the text blocks, skipping others, and reads nothing from other shapes', () => {
    const content = [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: ' a' }, { type: 'tool_use', id: 't' }, { type: 'text', text: 'b ' }];
    assert.equal(textOfMessage({ type: 'message', content }), 'ab');
    for (const body of [{ content: [] }, { content: [{ type: 'text', text: ' ' }] }, { content: 'text' }, null, 'x']) {
      assert.equal(textOfMessage(body), undefined, JSON.stringify(body));
    }
  });
});
