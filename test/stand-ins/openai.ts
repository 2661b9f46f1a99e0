// A local server speaking OpenAI's Chat Completions (`POST {base}/chat/completions`), as OpenAI (slot B) and
// Gemini's OpenAI-compatible endpoint (slot A) do; keys travel as `Authorization: Bearer <key>`.
import { startChatStandIn, type ChatStandIn, type WireProtocol } from './chat-server.js';

export type { ChatBehaviour, ChatStandIn, RecordedChat } from './chat-server.js';

const openAiError = (status: number, message: string) => ({
  error: {
    message,
    type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
    param: null,
    code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
  },
});

export const chatCompletions: WireProtocol = {
  basePath: '/v1',
  endpoint: '/chat/completions',
  keyOf: (headers) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1],
  refuse: (headers) => (/^Bearer \S+$/.test(headers.authorization ?? '')
    ? undefined
    : { status: 401, body: openAiError(401, 'You did not provide an API key.') }),
  success: (text, model) => ({
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  }),
  error: openAiError,
  malformed: () => ({ id: 'chatcmpl-standin', object: 'chat.completion', choices: [] }),
};

/** `basePath` lets a test mimic Gemini's `/v1beta/openai` prefix. */
export function startOpenAiStandIn(options: { basePath?: string } = {}): Promise<ChatStandIn> {
  return startChatStandIn({ ...chatCompletions, basePath: options.basePath ?? chatCompletions.basePath });
}
