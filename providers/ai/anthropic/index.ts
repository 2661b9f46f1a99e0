// Loaded on the first call: the SDK costs start-up time and memory that a service without AI keys never needs.
let sdkModule: Promise<typeof import('@anthropic-ai/sdk')> | undefined;
const loadSdk = () => (sdkModule ??= import('@anthropic-ai/sdk'));
import { AI_CONTRACT_VERSION, type AiProvider } from '../../../kernel/contracts/ai.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { hostOf, startCall, type OutboundClient } from '../shared/call.js';
import { aiFailure, fromThrown } from '../shared/failure.js';
import { textOfMessage, toMessagesBody } from './translate.js';

export { textOfMessage, toMessagesBody, DEFAULT_MAX_TOKENS } from './translate.js';

export const ANTHROPIC_ID = 'anthropic';

/** Anthropic's Messages API through `@anthropic-ai/sdk` (slot C by default). */
export function createAnthropicProvider(client: OutboundClient): AiProvider {
  return {
    id: ANTHROPIC_ID,
    async complete(request) {
      const base = {
        provider: ANTHROPIC_ID,
        where: `Anthropic at ${hostOf(request.baseUrl, 'api.anthropic.com')}`,
        apiKey: request.apiKey,
      };
      if (!request.apiKey) throw aiFailure({ ...base, kind: 'auth', detail: 'no API key was given' });
      // Loaded before the attempt's clock starts: a cold import of the SDK is not the provider's slowness.
      const { default: Anthropic } = await loadSdk();
      const call = startCall(request, client);
      let answer: unknown;
      try {
        // A key given in code keeps the client from reading ANTHROPIC_API_KEY; `null` does the same for the base URL.
        const sdk = new Anthropic({
          apiKey: request.apiKey,
          baseURL: request.baseUrl ?? null,
          maxRetries: 0,
          timeout: request.timeoutMs,
          fetch: call.fetch,
        });
        answer = await sdk.messages.create(toMessagesBody(request), { signal: call.signal });
      } catch (error) {
        throw fromThrown(error, call, base);
      }
      const text = textOfMessage(answer);
      if (text === undefined) throw aiFailure({ ...base, kind: 'malformed', detail: 'the answer holds no text block' });
      return text;
    },
  };
}

/** AI provider `anthropic`: the Messages wire protocol. */
export const anthropicAi = defineProvider({
  capability: 'ai',
  id: ANTHROPIC_ID,
  contractVersion: AI_CONTRACT_VERSION,
  async create(context) {
    return createAnthropicProvider(context.outbound.client);
  },
});
