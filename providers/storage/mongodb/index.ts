import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { urlSetting } from '../shared/url-setting.js';

export type { MongoStorage, MongoStorageOptions } from './mongo-storage.js';
export { INDEXES } from './indexes.js';

/**
 * MongoDB storage (`STORAGE=mongodb`, `MONGODB_URL`): one database shared by every instance.
 * The implementation (and the `mongodb` driver) loads only when this provider is chosen.
 */
export const mongodbStorage = defineProvider({
  capability: 'storage',
  id: 'mongodb',
  contractVersion: STORAGE_CONTRACT_VERSION,
  configSchema: Type.Object({ MONGODB_URL: urlSetting(['mongodb:', 'mongodb+srv:']) }),
  create: async (ctx) => {
    // The registry checked it; a direct create (a test, a tool) may still come without.
    if (!ctx.config.MONGODB_URL) throw new Error('mongodb storage needs MONGODB_URL (mongodb://user:password@host:27017/taskloom)');
    const { openMongoStorage } = await import('./mongo-storage.js');
    return openMongoStorage({ url: ctx.config.MONGODB_URL, logger: ctx.logger.child({ storage: 'mongodb' }) });
  },
});
