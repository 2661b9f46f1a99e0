import { defineLayer } from '../../kernel/contracts/provider.js';
import { openSecretStorage } from './open-secret-storage.js';
import { keyConfig, sealingSettings } from './settings.js';

// The storage capability's layer: secrets sealed at rest for every storage provider (settings named in
// secret-fields.ts, credential configs), with the keys of SECRETS_KEY or DATA_DIR/secrets.key, and their rotation.
export { openSecretStorage, sealStorage } from './open-secret-storage.js';
export { keyConfig, keysOf, sealingSettings } from './settings.js';

/** The storage as every plugin sees it: a wrong key stops the start, with what to do. */
export const sealedStorage = defineLayer({
  capability: 'storage',
  id: 'sealed-storage',
  configSchema: sealingSettings,
  wrap: (raw, { config, dataDir, logger }) => openSecretStorage(raw, { config: keyConfig(config, dataDir), logger }),
});
