// A local server speaking Anthropic's Messages API (`POST /v1/messages`) with the `anthropic-version` header
// the real API requires. The key arrives in `x-api-key` (SDKs before 1.x, curl examples) or, as
// `@anthropic-ai/sdk` 1.x sends it, in `Authorization: Bearer`; both are accepted and recorded.
import { startChatStandIn, type ChatStandIn, type WireProtocol } from './chat-server.js';

export type { ChatBehaviour, ChatStandIn, RecordedChat } from './chat-server.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  429: 'rate_limit_error', 500: 'api_error', 503: 'overloaded_error',
};

const anthropicError = (status: number, message: string) => ({
  type: 'error',
  error: { type: ERROR_TYPES[status] ?? 'api_error', message },
});

export const messages: WireProtocol = {
  basePath: '',
  endpoint: '/v1/messages',
  keyOf: (headers) =>
    (typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1]),
  refuse(headers) {
    if (messages.keyOf(headers) === undefined) return { status: 401, body: anthropicError(401, 'x-api-key header is required') };
    if (typeof headers['anthropic-version'] !== 'string') {
      return { status: 400, body: anthropicError(400, 'anthropic-version: header is required') };
    }
    return undefined;
  },
  success: (text, model) => ({
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  }),
  error: anthropicError,
  malformed: () => ({ id: 'msg_standin', type: 'message', role: 'assistant', content: 'not a list of blocks' }),
};

export function startAnthropicStandIn(): Promise<ChatStandIn> {
  return startChatStandIn(messages);
}
