import type { AiProvider, AiSlotName } from './contracts/ai.js';
import type { OutputTarget } from './contracts/output.js';
import { Errors } from './errors.js';
import type { Registry } from './registry.js';

/** The provider serving each AI slot (TASKLOOM_AI_SLOTS): what `app.services.ai` holds. */
export type AiSlotProviders = Readonly<Record<AiSlotName, AiProvider>>;

/** Output targets by provider id (a credential names its provider): what `app.services.outputs` holds. */
export interface OutputTargets {
  /** The registered output provider ids. */
  ids(): string[];
  /** The target of `providerId`, created on first use (one per id). Throws VALIDATION_ERROR for an id no module registers. */
  get(providerId: string): Promise<OutputTarget>;
}

/** Creates the provider of each slot, one instance per provider id (checkConfig made sure each is registered). */
export async function createAiSlots(registry: Registry, slots: Record<AiSlotName, string>): Promise<AiSlotProviders> {
  const byId = new Map<string, Promise<AiProvider>>();
  const entries = await Promise.all((Object.entries(slots) as Array<[AiSlotName, string]>).map(async ([slot, id]) => {
    if (!byId.has(id)) byId.set(id, registry.service('ai', id));
    return [slot, await byId.get(id)!] as const;
  }));
  return Object.fromEntries(entries) as Record<AiSlotName, AiProvider>;
}

export function createOutputTargets(registry: Registry): OutputTargets {
  const instances = new Map<string, Promise<OutputTarget>>();
  return {
    ids: () => registry.providerIds('output'),
    get(providerId) {
      if (!registry.providerIds('output').includes(providerId)) {
        return Promise.reject(Errors.VALIDATION_ERROR({ message: `output provider "${providerId}" is not installed: add its module to TASKLOOM_MODULES` }));
      }
      let instance = instances.get(providerId);
      if (!instance) {
        // Cached so concurrent first uses create one instance; a failed creation is tried again later.
        instance = registry.service('output', providerId);
        instances.set(providerId, instance);
        instance.catch(() => instances.delete(providerId));
      }
      return instance;
    },
  };
}
