import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startService } from '../support/service.js';

describe('health', () => {
  it('answers ok with uptime and the storage backend, without credentials', async () => {
    const svc = await startService();
    try {
      const res = await svc.request('GET', '/api/health');
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
      assert.equal(res.body.storage, 'json');
      assert.equal(typeof res.body.uptime, 'number');
      assert.equal('storage_error' in res.body, false);
    } finally {
      await svc.close();
    }
  });

  it('answers 503 degraded with storage_error while the store is unreachable, and recovers', async () => {
    const svc = await startService();
    const store = path.join(svc.dataDir, 'store');
    try {
      await fs.rename(store, `${store}.away`);
      const down = await svc.request('GET', '/api/health');
      assert.equal(down.status, 503);
      assert.deepEqual([down.body.status, down.body.storage], ['degraded', 'json']);
      assert.equal(typeof down.body.storage_error, 'string');
      assert.ok(down.body.storage_error.length > 0);
      await fs.rename(`${store}.away`, store);
      const up = await svc.request('GET', '/api/health');
      assert.deepEqual([up.status, up.body.status], [200, 'ok']);
    } finally {
      await svc.close();
    }
  });
});
