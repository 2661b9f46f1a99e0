// A local server speaking Ollama's chat API (`POST /api/chat`), answering the non-streaming shape; errors are
// `{ "error": "..." }` as Ollama sends them. No key: an Ollama server is reached by its address.
import { startChatStandIn, type ChatStandIn, type WireProtocol } from './chat-server.js';

export type { ChatBehaviour, ChatStandIn, RecordedChat } from './chat-server.js';

export const ollamaChat: WireProtocol = {
  basePath: '',
  endpoint: '/api/chat',
  keyOf: (headers) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1],
  success: (text, model) => ({
    model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', content: text },
    done_reason: 'stop',
    done: true,
    total_duration: 1_000_000,
    eval_count: 5,
  }),
  error: (_status, message) => ({ error: message }),
  malformed: () => ({ model: 'x', done: true, response: 'a /api/generate answer, not a chat one' }),
};

export function startOllamaStandIn(): Promise<ChatStandIn> {
  return startChatStandIn(ollamaChat);
}
