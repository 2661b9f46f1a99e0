import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { BLOB_CONTRACT_VERSION } from '../../../kernel/contracts/blob.js';

/** A mongodb:// URL; the message never repeats the value (it may hold a password). */
const mongoUrl = Type.Refine(Type.String(), (value) => {
  try {
    return ['mongodb:', 'mongodb+srv:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, () => 'must be a mongodb:// or mongodb+srv:// URL');

/**
 * Blob store `gridfs` (`BLOB_STORE=gridfs`): blobs in the GridFS bucket `taskloom_blobs` of MONGODB_URL's
 * database. The implementation (and the `mongodb` driver) loads only when this store is chosen.
 */
export const gridfsBlobStore = defineProvider({
  capability: 'blob',
  id: 'gridfs',
  contractVersion: BLOB_CONTRACT_VERSION,
  configSchema: Type.Object({ MONGODB_URL: mongoUrl }),
  create: async (ctx) => {
    // The registry checked it; a direct create (a test, a tool) may still come without.
    if (!ctx.config.MONGODB_URL) throw new Error('the gridfs blob store needs MONGODB_URL (mongodb://user:password@host:27017/taskloom)');
    const { openGridfsBlobStore } = await import('./gridfs-blob-store.js');
    return openGridfsBlobStore({ url: ctx.config.MONGODB_URL, logger: ctx.logger.child({ blob: 'gridfs' }) });
  },
});
