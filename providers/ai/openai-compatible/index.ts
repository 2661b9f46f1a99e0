// Loaded on the first call: the SDK costs start-up time and memory that a service without AI keys never needs.
let sdkModule: Promise<typeof import('openai')> | undefined;
const loadSdk = () => (sdkModule ??= import('openai'));
import { AI_CONTRACT_VERSION, type AiProvider } from '../../../kernel/contracts/ai.js';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { hostOf, startCall, type OutboundClient } from '../shared/call.js';
import { aiFailure, fromThrown } from '../shared/failure.js';
import { textOfChatCompletion, toChatCompletionBody } from './translate.js';

export { textOfChatCompletion, toChatCompletionBody } from './translate.js';

export const OPENAI_COMPATIBLE_ID = 'openai-compatible';
const DEFAULT_HOST = 'api.openai.com';

/**
 * Chat Completions through the `openai` client: OpenAI itself (no base URL) and any compatible endpoint,
 * such as Gemini's at `https://generativelanguage.googleapis.com/v1beta/openai/`.
 */
export function createOpenAiCompatibleProvider(client: OutboundClient): AiProvider {
  return {
    id: OPENAI_COMPATIBLE_ID,
    async complete(request) {
      const base = {
        provider: OPENAI_COMPATIBLE_ID,
        where: `the OpenAI-compatible endpoint at ${hostOf(request.baseUrl, DEFAULT_HOST)}`,
        apiKey: request.apiKey,
      };
      if (!request.apiKey) throw aiFailure({ ...base, kind: 'auth', detail: 'no API key was given' });
      // Loaded before the attempt's clock starts: a cold import of the SDK is not the provider's slowness.
      const { default: OpenAI } = await loadSdk();
      const call = startCall(request, client);
      let answer: unknown;
      try {
        // `null`, not undefined: the client would otherwise read OPENAI_BASE_URL and friends from the environment.
        const sdk = new OpenAI({
          apiKey: request.apiKey,
          baseURL: request.baseUrl ?? null,
          organization: null,
          project: null,
          maxRetries: 0,
          timeout: request.timeoutMs,
          fetch: call.fetch,
        });
        answer = await sdk.chat.completions.create(toChatCompletionBody(request), { signal: call.signal });
      } catch (error) {
        throw fromThrown(error, call, base);
      }
      const text = textOfChatCompletion(answer);
      if (text === undefined) throw aiFailure({ ...base, kind: 'malformed', detail: 'the answer holds no chat completion text' });
      return text;
    },
  };
}

/** AI provider `openai-compatible`: the Chat Completions wire protocol (slots A and B by default). */
export const openAiCompatibleAi = defineProvider({
  capability: 'ai',
  id: OPENAI_COMPATIBLE_ID,
  contractVersion: AI_CONTRACT_VERSION,
  async create(context) {
    return createOpenAiCompatibleProvider(context.outbound.client);
  },
});
