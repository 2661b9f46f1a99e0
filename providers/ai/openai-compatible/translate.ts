import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { CompletionRequest } from '../../../kernel/contracts/ai.js';

/**
 * The Chat Completions body for one request. No token cap unless asked: OpenAI's newer models refuse
 * `max_tokens`, and the answers asked for here are short.
 */
export function toChatCompletionBody(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
  return {
    model: request.model,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of the first choice, trimmed; undefined when the body is not a chat completion or holds no text.
 * Some compatible servers answer `content` as a list of parts: their text parts are joined.
 */
export function textOfChatCompletion(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.choices)) return undefined;
  const first: unknown = body.choices[0];
  if (!isRecord(first) || !isRecord(first.message)) return undefined;
  const content = first.message.content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    text = content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  }
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
