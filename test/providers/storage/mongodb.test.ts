import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { openMongoStorage, type MongoStorage } from '../../../providers/storage/mongodb/mongo-storage.js';
import { storageContract, type StorageHarness } from '../../../testing/storage.contract.js';

/**
 * The storage contract against a real MongoDB. No MongoDB server can be installed on the build
 * machine, so this runs only when MONGODB_URL is set; the server-less tests are in
 * mongodb-queries.test.ts and mongodb-offline.test.ts.
 */
const url = process.env.MONGODB_URL;

if (url === undefined || url === '') {
  const reason = 'MONGODB_URL is not set: no MongoDB server on this machine; the MongoDB contract suite did not run';
  describe('storage contract: mongodb', () => {
    it('runs the storage contract suite against MONGODB_URL', { skip: reason }, () => undefined);
  });
} else {
  const admin = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  after(() => admin.close());

  /** Every test gets its own database, dropped afterwards. */
  storageContract('mongodb', async (): Promise<StorageHarness> => {
    const dbName = `t_${randomBytes(6).toString('hex')}`;
    const open = () => openMongoStorage({ url, dbName });
    let storage: MongoStorage = await open();
    return {
      get storage() {
        return storage;
      },
      async reopen() {
        await storage.close();
        storage = await open();
        return storage;
      },
      async cleanup() {
        await storage.close();
        await admin.db(dbName).dropDatabase();
      },
    };
  });
}
