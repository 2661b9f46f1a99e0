import { anthropicAi } from './anthropic/index.js';
import { ollamaAi } from './ollama/index.js';
import { openAiCompatibleAi } from './openai-compatible/index.js';

/** The AI providers that ship with taskloom: one per wire protocol. Slots bind to them in `config.aiSlots`. */
export const aiProviders = [openAiCompatibleAi, anthropicAi, ollamaAi];
