import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ollamaAi, textOfOllamaChat, toOllamaChat } from '../../../providers/ai/ollama/index.js';
import { aiContract } from '../../../testing/ai.contract.js';
import { startOllamaStandIn, type ChatStandIn } from '../../stand-ins/ollama.js';
import { CLOSED_ORIGIN, createAi, fixtureFactory, outboundFor } from './harness.js';

// Ollama needs no key; one is given (a proxy in front of a server may ask for it) so redaction is tested too.
const KEY = 'ollama-proxy-token-5d1c9e';

aiContract('ollama', fixtureFactory({
  definition: ollamaAi,
  start: startOllamaStandIn,
  model: 'llama3.2',
  key: KEY,
  baseUrl: (standIn) => standIn.url,
  closedBaseUrl: CLOSED_ORIGIN,
}));

describe('ollama: chat specifics', () => {
  let standIn: ChatStandIn;
  const open = outboundFor(true);
  const guarded = outboundFor(false);
  before(async () => { standIn = await startOllamaStandIn(); });
  after(async () => {
    await open.client.close();
    await guarded.client.close();
    await standIn.close();
  });

  it('asks /api/chat for one non-streaming answer, with no credential when the entry has none', async () => {
    const provider = await createAi(ollamaAi, open);
    standIn.answer({ text: 'return 1;' });
    assert.equal(await provider.complete({ system: 's', user: 'u', model: 'qwen2.5', baseUrl: standIn.url, timeoutMs: 5000 }), 'return 1;');
    const [sent] = standIn.requests;
    assert.equal(sent!.path, '/api/chat');
    assert.equal(sent!.body.stream, false);
    assert.equal(sent!.model, 'qwen2.5');
    assert.equal(sent!.headers.authorization, undefined);
  });

  it('refuses a private address unless ALLOW_PRIVATE_NETWORKS, before sending anything', async () => {
    const provider = await createAi(ollamaAi, guarded);
    const before = standIn.requests.length;
    await assert.rejects(
      provider.complete({ system: 's', user: 'u', model: 'llama3.2', baseUrl: standIn.url, timeoutMs: 5000 }),
      (error: { kind?: string; retryable?: boolean; message: string }) =>
        error.kind === 'blocked' && error.retryable === false && /ALLOW_PRIVATE_NETWORKS/.test(error.message),
    );
    assert.equal(standIn.requests.length, before);
  });

  it('needs a server address', async () => {
    const provider = await createAi(ollamaAi, open);
    await assert.rejects(provider.complete({ system: 's', user: 'u', model: 'm', timeoutMs: 100 }), { kind: 'request' });
  });
});

describe('ollama: translation', () => {
  it('builds a non-streaming chat with num_predict only when a cap is asked', () => {
    const base = { system: 's', user: 'u', model: 'm', timeoutMs: 1 };
    assert.deepEqual(toOllamaChat(base), { model: 'm', stream: false, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] });
    assert.deepEqual(toOllamaChat({ ...base, maxTokens: 7 }).options, { num_predict: 7 });
  });

  it('reads message.content and nothing from other shapes', () => {
    assert.equal(textOfOllamaChat({ message: { role: 'assistant', content: ' x ' } }), 'x');
    for (const body of [{ message: { content: '' } }, { response: 'x' }, { message: 'x' }, null]) {
      assert.equal(textOfOllamaChat(body), undefined, JSON.stringify(body));
    }
  });
});
