import type { AiProvider, AiSlotName } from '../../kernel/contracts/ai.js';
import type { ProviderContext } from '../../kernel/contracts/provider.js';
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

/**
 * Creates the provider of each slot named in `config.aiSlots` (one instance per provider id) and binds them in
 * order. An id no module registers stops start-up with the list of known ones.
 */
export async function createSlotBindings(services: KernelServices): Promise<SlotBinding[]> {
  const { registry, config, logger, outbound, shutdownSignal, storage } = services;
  const known = registry.providerIds('ai');
  const context: ProviderContext = { config, logger, dataDir: config.dataDir, outbound, signal: shutdownSignal, storage };
  const instances = new Map<string, Promise<AiProvider>>();
  const bindings: SlotBinding[] = [];
  for (const slot of SLOT_ORDER) {
    const id = config.aiSlots[slot];
    if (!known.includes(id)) {
      throw new Error(`TASKLOOM_AI_SLOTS binds slot ${slot} to AI provider "${id}", which no module registers (known: ${known.join(', ') || 'none'})`);
    }
    let instance = instances.get(id);
    if (!instance) {
      instance = registry.provider('ai', id).create({ ...context, logger: logger.child({ provider: `ai/${id}` }) });
      instances.set(id, instance);
    }
    const baseUrl = baseUrlOf(slot, id, config);
    bindings.push({ slot, provider: await instance, ...(baseUrl === undefined ? {} : { baseUrl }) });
  }
  return bindings;
}
