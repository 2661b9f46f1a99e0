// MongoDB against a peer that stops answering (a wire-protocol stand-in: no MongoDB server can be installed here):
// every call ends at the driver's time limits with STORAGE_UNAVAILABLE instead of waiting for ever, three times
// over, and the store serves again soon after the peer answers. And the client options: the time limits are set,
// and a parameter of MONGODB_URL wins over them.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { mongoClientOptions, MONGO_DEFAULTS } from '../../../providers/storage/mongodb/client-options.js';
import { openMongoStorage } from '../../../providers/storage/mongodb/mongo-storage.js';
import { startMongoStandIn } from './mongo-wire-stand-in.js';

const unavailable = (error: unknown) => (error as { code?: string }).code === 'STORAGE_UNAVAILABLE';

describe('mongodb and a silent peer', () => {
  it('calls end at the time limits while the peer is silent, and the store serves again once it answers (three times)', { timeout: 180_000 }, async () => {
    const peer = await startMongoStandIn();
    const storage = await openMongoStorage({
      url: `${peer.url}?heartbeatFrequencyMS=500&directConnection=true`, socketTimeoutMs: 1000, connectTimeoutMs: 1000, serverSelectionTimeoutMs: 2000,
    });
    try {
      assert.equal(await storage.tasks.get('t1'), undefined);
      await storage.check();
      for (let episode = 1; episode <= 3; episode++) {
        peer.silence();
        const started = Date.now();
        const calls = await Promise.allSettled([storage.tasks.get('t1'), storage.tasks.list(), storage.executions.get('e1')]);
        const took = Date.now() - started;
        assert.ok(calls.every((c) => c.status === 'rejected' && unavailable(c.reason)), `episode ${episode}: ${calls.map((c) => (c.status === 'rejected' ? c.reason.message : 'answered')).join(' | ')}`);
        assert.ok(took < 10_000, `episode ${episode}: the calls ended after ${took} ms, at the time limits`);
        await assert.rejects(storage.check(), unavailable);
        peer.answer();
        const back = Date.now();
        for (;;) {
          const ok = await storage.tasks.get('t1').then(() => true, () => false);
          if (ok) break;
          assert.ok(Date.now() - back < 30_000, `episode ${episode}: serving again within 30 s of the peer answering`);
          await sleep(200);
        }
        console.log(`# episode ${episode}: calls ended in ${took} ms while silent; served again ${Date.now() - back} ms after the peer answered`);
      }
    } finally {
      await storage.close();
      await peer.close();
    }
  });

  it('sets the time limits, TCP keep-alive aside (the driver always keeps alive), and lets MONGODB_URL override them', () => {
    const options = mongoClientOptions('mongodb://db.example:27017/tl', undefined, {});
    assert.deepEqual(
      [options.serverSelectionTimeoutMS, options.connectTimeoutMS, options.socketTimeoutMS, options.heartbeatFrequencyMS, options.waitQueueTimeoutMS, options.maxIdleTimeMS, options.maxPoolSize],
      [5000, 5000, MONGO_DEFAULTS.socketTimeoutMs, 5000, 5000, 60_000, 10],
    );
    assert.deepEqual(options.writeConcern, { w: 'majority', journal: true });
    const url = 'mongodb://db.example:27017/tl?socketTimeoutMS=60000&HeartbeatFrequencyMS=20000';
    const client = new MongoClient(url, mongoClientOptions(url, 4, { connectTimeoutMs: 2000 }));
    assert.deepEqual(
      [client.options.socketTimeoutMS, client.options.heartbeatFrequencyMS, client.options.connectTimeoutMS, client.options.maxPoolSize, client.options.serverSelectionTimeoutMS],
      [60_000, 20_000, 2000, 4, 5000],
    );
  });
});
