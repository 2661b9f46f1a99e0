import type { AiSlotName } from '../../kernel/contracts/ai.js';
import type { KernelServices } from '../../kernel/services.js';
import type { SlotBinding } from './plan.js';

/** Slot A is Gemini, reached through its OpenAI-compatible endpoint (decisions.md, "AI providers"). */
export const GEMINI_OPENAI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta/openai/';

export const SLOT_ORDER: readonly AiSlotName[] = ['A', 'B', 'C', 'D'];

/**
 * The base URL of a hosted slot: PROVIDER_<slot>_BASE_URL, else the product's public endpoint. Gemini's
 * address only applies while slot A is served by the OpenAI-compatible adapter: a provider put in its place
 * knows its own endpoint.
 */
export function baseUrlOf(slot: AiSlotName, providerId: string, config: KernelServices['config']): string | undefined {
  if (slot === 'D') return undefined;
  const configured = config.providerBaseUrls[slot];
  if (configured !== undefined) return configured;
  return slot === 'A' && providerId === 'openai-compatible' ? GEMINI_OPENAI_BASE_URL : undefined;
}

/** Each slot, in order, with the provider the kernel created for it (`services.ai`) and its base URL. */
export function slotBindings(services: Pick<KernelServices, 'ai' | 'config'>): SlotBinding[] {
  return SLOT_ORDER.map((slot) => {
    const baseUrl = baseUrlOf(slot, services.config.aiSlots[slot], services.config);
    return { slot, provider: services.ai[slot], ...(baseUrl === undefined ? {} : { baseUrl }) };
  });
}
