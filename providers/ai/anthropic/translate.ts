import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { CompletionRequest } from '../../../kernel/contracts/ai.js';

/** Messages requires a cap on the answer's length; selectors and scripts fit well within it. */
export const DEFAULT_MAX_TOKENS = 2048;

/** The Messages body for one request: the system prompt is a top-level field, not a message. */
export function toMessagesBody(request: CompletionRequest): MessageCreateParamsNonStreaming {
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    system: request.system,
    messages: [{ role: 'user', content: request.user }],
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer's text blocks joined and trimmed; undefined when the body is not a message or holds no text. */
export function textOfMessage(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.content)) return undefined;
  const text = body.content
    .map((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('')
    .trim();
  return text === '' ? undefined : text;
}
