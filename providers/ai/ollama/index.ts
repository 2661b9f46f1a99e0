// Loaded on the first call: a service without a provider D entry never needs the client.
let sdkModule: Promise<typeof import('ollama')> | undefined;
const loadSdk = () => (sdkModule ??= import('ollama'));
import { AI_CONTRACT_VERSION, type AiProvider } from '../../../kernel/contracts/ai.js';
import { defineProvider, type ProviderContext } from '../../../kernel/contracts/provider.js';
import { hostOf, startCall } from '../shared/call.js';
import { aiFailure, fromThrown } from '../shared/failure.js';
import { OllamaStatusError, ollamaErrorText, textOfOllamaChat, toOllamaChat } from './translate.js';

export { textOfOllamaChat, toOllamaChat } from './translate.js';

export const OLLAMA_ID = 'ollama';

/**
 * A self-hosted Ollama server through the `ollama` client's `/api/chat` (slot D by default). The server
 * address is `baseUrl` (from the provider D entry); it is user-supplied, so the outbound rule checks it
 * before the call and again at connect time.
 */
export function createOllamaProvider(outbound: ProviderContext['outbound']): AiProvider {
  return {
    id: OLLAMA_ID,
    async complete(request) {
      const base = { provider: OLLAMA_ID, where: `Ollama at ${hostOf(request.baseUrl, 'no address')}`, apiKey: request.apiKey };
      if (request.baseUrl === undefined) throw aiFailure({ ...base, kind: 'request', detail: 'no server address was given' });
      // Loaded before the attempt's clock starts: a cold import of the SDK is not the provider's slowness.
      const { Ollama } = await loadSdk();
      const call = startCall(request, outbound.client);
      let answer: unknown;
      try {
        await outbound.guard.check(request.baseUrl);
        const ollama = new Ollama({
          host: request.baseUrl,
          headers: request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : undefined,
          // Statuses are read here, before the client (which prints to the console on a non-JSON error body).
          fetch: (async (input: string | URL | Request, init?: RequestInit) => {
            const response = await call.fetch(input, init);
            if (!response.ok) throw new OllamaStatusError(response.status, ollamaErrorText(await response.text()));
            return response;
          }) as typeof fetch,
        });
        answer = await ollama.chat(toOllamaChat(request));
      } catch (error) {
        throw fromThrown(error, call, base);
      }
      const text = textOfOllamaChat(answer);
      if (text === undefined) throw aiFailure({ ...base, kind: 'malformed', detail: 'the answer holds no message content' });
      return text;
    },
  };
}

/** AI provider `ollama`: Ollama's chat wire protocol. */
export const ollamaAi = defineProvider({
  capability: 'ai',
  id: OLLAMA_ID,
  contractVersion: AI_CONTRACT_VERSION,
  async create(context) {
    return createOllamaProvider(context.outbound);
  },
});
