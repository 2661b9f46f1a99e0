import path from 'node:path';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { openJsonStorage } from './json-storage.js';

export { openJsonStorage, type JsonStorageOptions } from './json-storage.js';

/** The embedded storage: JSON-lines journals under `<dataDir>/store`, no server to run. */
export const jsonStorage = defineProvider({
  capability: 'storage',
  id: 'json',
  contractVersion: STORAGE_CONTRACT_VERSION,
  create: (ctx) => openJsonStorage({ dir: path.join(ctx.dataDir, 'store'), logger: ctx.logger }),
});
