export const AI_CONTRACT_VERSION = 1;

export interface CompletionRequest {
  system: string;
  user: string;
  model: string;
  /** The key, or for self-hosted providers the server address. Never logged. */
  apiKey: string;
  baseUrl?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** An AI provider: one chat-style completion over one wire protocol. */
export interface AiProvider {
  readonly id: string;
  /** Resolves to the answer text. Throws an UpstreamError whose `retryable` decides failover. */
  complete(request: CompletionRequest): Promise<string>;
}
