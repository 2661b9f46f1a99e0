import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when node was started on the module at `moduleUrl` (its `import.meta.url`), links resolved (npm's bin links). */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
