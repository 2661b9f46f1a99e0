// A real storage for the tests of providers created after it (auth, say), which get the service's storage in
// their context: taskloom's default (STORAGE=json), on a folder of the test's.
import type { StorageProvider } from '../kernel/contracts/storage.js';
import { openJsonStorage } from '../providers/storage/json/index.js';

/** The json storage on `dir` (created when missing); the test closes it. One open storage per folder. */
export function openTestStorage(dir: string): Promise<StorageProvider> {
  return openJsonStorage({ dir });
}
