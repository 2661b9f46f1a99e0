import { DEFAULT_SLOT_MODELS, type AiProvider, type AiSlotName } from '../../kernel/contracts/ai.js';
import type { AiModelSettings, SettingsEntries, StoredAiProviderKeys } from '../settings/decorators.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';

/** One slot as configured: the provider serving it and, for hosted slots, the endpoint to reach. */
export interface SlotBinding {
  slot: AiSlotName;
  provider: AiProvider;
  /** Absent: the provider's public endpoint. Slot D takes the address from each entry instead. */
  baseUrl?: string;
}

/** One key of one slot, ready to ask. */
export interface PlannedAttempt {
  slot: AiSlotName;
  provider: AiProvider;
  /** Position of the key in the slot's stored list, from 0. */
  keyIndex: number;
  model: string;
  apiKey?: string;
  baseUrl?: string;
}

/** What the chain reads of the settings, at each request (a key saved a moment ago is used at once). */
export interface AiSettings {
  keys: StoredAiProviderKeys;
  models: AiModelSettings;
}

/** The AI contract's default models, under the names of the AI model settings. */
const DEFAULT_MODELS: AiModelSettings = {
  providerA: DEFAULT_SLOT_MODELS.A, providerB: DEFAULT_SLOT_MODELS.B, providerC: DEFAULT_SLOT_MODELS.C, providerD: DEFAULT_SLOT_MODELS.D,
};

const KEYS = 'settings.aiProviderKeys' satisfies keyof SettingsEntries;
const MODELS = 'settings.aiModels' satisfies keyof SettingsEntries;

/** Reads the keys and models the settings plugin stored (its own key names, checked against the contract). */
export async function readAiSettings(settings: Pick<SettingsStore, 'get'>): Promise<AiSettings> {
  const [keys, models] = await Promise.all([
    settings.get<SettingsEntries[typeof KEYS]>(KEYS),
    settings.get<SettingsEntries[typeof MODELS]>(MODELS),
  ]);
  return { keys: keys ?? {}, models: { ...DEFAULT_MODELS, ...models } };
}

/**
 * Every attempt a request may make, in order: slots as bound (A, B, C, D), each slot's keys in stored order.
 * Slots without keys add nothing. A provider D entry's own model wins over the slot's model setting.
 */
export function planAttempts(bindings: readonly SlotBinding[], { keys, models }: AiSettings): PlannedAttempt[] {
  return bindings.flatMap((binding): PlannedAttempt[] => {
    const { slot, provider } = binding;
    const model = models[`provider${slot}`];
    if (slot === 'D') {
      return (keys.providerD ?? []).map((endpoint, keyIndex) => ({
        slot, provider, keyIndex, model: endpoint.model ?? model, baseUrl: endpoint.url,
      }));
    }
    return (keys[`provider${slot}`] ?? []).map((apiKey, keyIndex) => ({
      slot, provider, keyIndex, model, apiKey, ...(binding.baseUrl === undefined ? {} : { baseUrl: binding.baseUrl }),
    }));
  });
}
