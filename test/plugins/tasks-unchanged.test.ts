import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as pause } from 'node:timers/promises';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';

// A save that changes nothing adds no version and keeps updatedAt (POST with or without
// ?version=true, PATCH, restore). On PostgreSQL the stored JSON comes back with its keys reordered
// (jsonb), so "unchanged" must not depend on key order.
const BASE = {
  name: 'Prices',
  url: 'https://example.com/shop',
  mode: 'agent',
  description: 'daily',
  actions: [{ type: 'navigate', value: 'https://example.com' }, { id: 'a2', type: 'click', selector: '#buy', timeoutMs: 500 }],
  variables: { q: 'shoes', page: 2 },
  viewport: { width: 1280, height: 800 },
};
/** BASE with every object's keys in reverse order. */
const REORDERED = {
  viewport: { height: 800, width: 1280 },
  variables: { page: 2, q: 'shoes' },
  actions: [{ value: 'https://example.com', type: 'navigate' }, { timeoutMs: 500, selector: '#buy', type: 'click', id: 'a2' }],
  description: 'daily',
  mode: 'agent',
  url: 'https://example.com/shop',
  name: 'Prices',
};

const postgresSkip = await postgresUnavailable();
if (postgresSkip) console.log(`# postgres case skipped: ${postgresSkip}`);

for (const storage of ['json', 'postgres'] as const) {
  describe(`tasks (${storage}): a save that changes nothing`, { skip: storage === 'postgres' && postgresSkip }, () => {
    let svc: TestService;
    let db: TestDatabase | undefined;
    let apiKey: string;
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await svc.request(method, url, { apiKey, body });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    before(async () => {
      if (storage === 'postgres') db = await createTestDatabase('taskloom_unchanged');
      svc = await startService(db ? { STORAGE: 'postgres', DATABASE_URL: db.url() } : {});
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await db?.drop();
    });

    it('POST ?version=true with the same configuration adds no version and keeps updatedAt', async () => {
      const first = await api('POST', '/api/tasks', { ...BASE, id: 'same-1' });
      await pause(5);
      const again = await api('POST', '/api/tasks?version=true', { ...BASE, id: 'same-1' });
      assert.deepEqual(again.versions, []);
      assert.equal(again.updatedAt, first.updatedAt);
      // Keys in another order and server fields sent back: still the same.
      const stored = await api('GET', '/api/tasks/same-1');
      const echoed = await api('POST', '/api/tasks?version=true', { ...stored, ...REORDERED, versions: [], updatedAt: 'x' });
      assert.deepEqual(echoed.versions, []);
      assert.equal(echoed.updatedAt, first.updatedAt);
      const plain = await api('POST', '/api/tasks', { ...REORDERED, id: 'same-1' });
      assert.equal(plain.updatedAt, first.updatedAt, 'without ?version=true too');

      const changed = await api('POST', '/api/tasks?version=true', { ...BASE, id: 'same-1', variables: { q: 'boots', page: 2 } });
      assert.equal(changed.versions.length, 1, 'a real change still snapshots');
      assert.ok(changed.updatedAt > first.updatedAt);
      assert.deepEqual(changed.versions[0].snapshot.variables, BASE.variables);
      const final = await api('GET', '/api/tasks/same-1');
      assert.equal(final.versions.length, 1);
    });

    it('PATCH with nothing new adds no version and keeps updatedAt', async () => {
      const task = await api('POST', '/api/tasks', BASE);
      await pause(5);
      for (const body of [{}, { name: 'Prices' }, { viewport: { height: 800, width: 1280 } }, { userAgent: null }, { actions: REORDERED.actions }]) {
        const patched = await api('PATCH', `/api/tasks/${task.id}`, body);
        assert.deepEqual(patched.versions, [], JSON.stringify(body));
        assert.equal(patched.updatedAt, task.updatedAt, JSON.stringify(body));
      }
      const changed = await api('PATCH', `/api/tasks/${task.id}`, { description: null });
      assert.equal(changed.versions.length, 1);
      assert.equal('description' in changed, false);
    });

    it('restoring a version the task already matches adds no version', async () => {
      const task = await api('POST', '/api/tasks', BASE);
      await api('PATCH', `/api/tasks/${task.id}`, { name: 'Other' });
      const back = await api('PATCH', `/api/tasks/${task.id}`, { name: 'Prices' });
      assert.equal(back.versions.length, 2);
      const original = back.versions[1];
      assert.equal(original.snapshot.name, 'Prices');
      const restored = await api('POST', `/api/tasks/${task.id}/versions/${original.id}/restore`);
      assert.equal(restored.versions.length, 2);
      assert.equal(restored.updatedAt, back.updatedAt);
    });
  });
}
