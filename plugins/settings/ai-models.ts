import { Errors } from '../../kernel/errors.js';
import { DEFAULT_AI_MODELS, type AiModelSettings } from './entries.js';
import { SETTINGS_KEYS, type TypedSettings } from './keys.js';
import type { AiModelsInput } from './schemas.js';

export { DEFAULT_AI_MODELS };

const SLOTS = Object.keys(DEFAULT_AI_MODELS) as (keyof AiModelSettings)[];

/** Default models without HTTP: only the slots ever set are stored, the others follow the defaults. */
export function createAiModelService(settings: TypedSettings) {
  const full = (stored: Partial<AiModelSettings> | undefined): AiModelSettings => ({ ...DEFAULT_AI_MODELS, ...stored });

  return {
    async get(): Promise<AiModelSettings> {
      return full(await settings.get(SETTINGS_KEYS.aiModels));
    },

    /** Sets the given slots (names trimmed); the others keep their value. Answers every slot. */
    async save(input: AiModelsInput): Promise<AiModelSettings> {
      const given: Partial<AiModelSettings> = {};
      for (const slot of SLOTS) {
        const name = input[slot]?.trim();
        if (name === undefined) continue;
        if (name === '') throw Errors.VALIDATION_ERROR({ message: `body.${slot} must be a model name, not blank` });
        given[slot] = name;
      }
      return full(await settings.update(SETTINGS_KEYS.aiModels, (current) => ({ ...current, ...given })));
    },
  };
}
