import type { ChatRequest } from 'ollama';
import type { CompletionRequest } from '../../../kernel/contracts/ai.js';

/** The `/api/chat` body for one request, non-streaming: one JSON answer. */
export function toOllamaChat(request: CompletionRequest): ChatRequest & { stream: false } {
  return {
    model: request.model,
    stream: false,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    ...(request.maxTokens === undefined ? {} : { options: { num_predict: request.maxTokens } }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `message.content` trimmed; undefined when the body is not a chat answer or holds no text. */
export function textOfOllamaChat(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.message) || typeof body.message.content !== 'string') return undefined;
  const text = body.message.content.trim();
  return text === '' ? undefined : text;
}

/** A non-2xx answer, with Ollama's `{ "error": "..." }` text when it sent one. */
export class OllamaStatusError extends Error {
  readonly status: number;
  readonly error: string;
  constructor(status: number, error: string) {
    super(error);
    this.name = 'OllamaStatusError';
    this.status = status;
    this.error = error;
  }
}

/** Reads the error text of a failed answer: Ollama sends `{ error }`, a proxy in front of it may send HTML. */
export function ollamaErrorText(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed) && typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: the text itself
  }
  return body;
}
