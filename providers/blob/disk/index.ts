import path from 'node:path';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { BLOB_CONTRACT_VERSION } from '../../../kernel/contracts/blob.js';
import { openDiskBlobStore } from './disk-blob-store.js';

export { openDiskBlobStore } from './disk-blob-store.js';

/** Blob store `disk` (the default): one file per blob under DATA_DIR/captures, where captures have always been. */
export const diskBlobStore = defineProvider({
  capability: 'blob',
  id: 'disk',
  contractVersion: BLOB_CONTRACT_VERSION,
  create: (ctx) => openDiskBlobStore({ dir: path.join(ctx.dataDir, 'captures'), logger: ctx.logger.child({ blob: 'disk' }) }),
});
