import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCredential, makeExecution, makeSession, makeTask, makeUser, type CurrentHarness } from './harness.js';

export function lifecycleCases(current: CurrentHarness): void {
  describe('lifecycle', () => {
    it('reports a backend kind', () => {
      assert.equal(typeof current().storage.kind, 'string');
      assert.notEqual(current().storage.kind, '');
    });

    it('check() resolves on a healthy backend', async () => {
      await assert.doesNotReject(current().storage.check());
    });

    it('close() is idempotent, sequentially and concurrently', async () => {
      const { storage } = current();
      await Promise.all([storage.close(), storage.close()]);
      await assert.doesNotReject(storage.close());
    });

    it('close() waits for writes already started', async () => {
      const { storage } = current();
      const task = makeTask();
      const writes = [storage.tasks.put(task), storage.executions.insert(makeExecution()), storage.settings.set('k', 1)];
      await storage.close();
      await Promise.all(writes);
      const reopened = await current().reopen();
      assert.deepEqual(await reopened.tasks.get(task.id), task);
      assert.equal(await reopened.executions.count(), 1);
      assert.equal(await reopened.settings.get('k'), 1);
    });

    it('compact() (when offered) keeps the latest settings and credentials, also across a reopen', async (t) => {
      const { storage } = current();
      if (!storage.compact) return t.skip('this provider does not offer the optional compact()');
      const credential = makeCredential();
      for (let i = 0; i < 5; i++) await storage.settings.set('k', { v: i });
      await storage.settings.set('gone', 1);
      await storage.settings.delete('gone');
      await storage.credentials.put(credential);
      await storage.credentials.put({ ...credential, name: 'latest' });
      await Promise.all([storage.compact(['settings', 'credentials']), storage.settings.set('during', true)]);
      const reopened = await current().reopen();
      assert.deepEqual(await reopened.settings.get('k'), { v: 4 });
      assert.equal(await reopened.settings.get('gone'), undefined);
      assert.equal(await reopened.settings.get('during'), true);
      assert.equal((await reopened.credentials.get(credential.id))?.name, 'latest');
    });

    it('calls after close() reject', async () => {
      const { storage } = current();
      await storage.close();
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['tasks.get', () => storage.tasks.get('x')],
        ['tasks.put', () => storage.tasks.put(makeTask())],
        ['users.findByEmail', () => storage.users.findByEmail('a@b.c')],
        ['sessions.deleteExpired', () => storage.sessions.deleteExpired(Date.now())],
        ['settings.get', () => storage.settings.get('k')],
        ['settings.set', () => storage.settings.set('k', 1)],
        ['executions.insert', () => storage.executions.insert(makeExecution())],
        ['executions.list', () => storage.executions.list()],
        ['credentials.list', () => storage.credentials.list()],
        ['claims.claim', () => storage.claims.claim('k', 'o', 1000)],
        ['check', () => storage.check()],
      ];
      for (const [name, call] of calls) {
        await assert.rejects(call(), (error: unknown) => error instanceof Error && error.message.length > 0, `${name} after close`);
      }
    });

    it('everything written is there after reopen()', async () => {
      const { storage } = current();
      const admin = makeUser({ email: 'Admin@Example.com' });
      assert.equal(await storage.users.insertFirst(admin), true);
      const other = makeUser();
      await storage.users.put(other);
      await storage.users.delete(other.id);
      const session = makeSession();
      await storage.sessions.put(session);
      await storage.settings.set('proxy', { host: 'proxy.local', port: 3128 });
      await storage.settings.update<number>('counter', (cur) => (cur ?? 0) + 5);
      await storage.settings.set('gone', true);
      await storage.settings.delete('gone');
      const tasks = [makeTask(), makeTask(), makeTask()];
      for (const task of tasks) await storage.tasks.put(task);
      await storage.tasks.update(tasks[1].id, (cur) => ({ ...cur, name: 'renamed' }));
      await storage.tasks.delete(tasks[2].id);
      const credential = makeCredential();
      await storage.credentials.put(credential);
      const runs = [makeExecution({ status: 'running' }), makeExecution(), makeExecution()];
      for (const run of runs) await storage.executions.insert(run);
      await storage.executions.update(runs[0].executionId, (cur) => ({ ...cur, status: 'success', durationMs: 7 }));
      await storage.executions.delete(runs[2].executionId);
      assert.equal(await storage.claims.claim('held', 'me', 600_000), true);
      await storage.close();

      const reopened = await current().reopen();
      assert.deepEqual(await reopened.users.list(), [admin]);
      assert.deepEqual(await reopened.users.findByEmail('admin@example.com'), admin);
      assert.equal(await reopened.users.insertFirst(makeUser()), false);
      assert.deepEqual(await reopened.sessions.list(), [session]);
      assert.deepEqual(await reopened.settings.get('proxy'), { host: 'proxy.local', port: 3128 });
      assert.equal(await reopened.settings.get('counter'), 5);
      assert.equal(await reopened.settings.get('gone'), undefined);
      assert.deepEqual(await reopened.tasks.list(), [tasks[0], { ...tasks[1], name: 'renamed' }]);
      assert.deepEqual(await reopened.credentials.get(credential.id), credential);
      assert.deepEqual(await reopened.executions.get(runs[0].executionId), { ...runs[0], status: 'success', durationMs: 7 });
      assert.deepEqual(await reopened.executions.get(runs[1].executionId), runs[1]);
      assert.equal(await reopened.executions.get(runs[2].executionId), undefined);
      assert.equal(await reopened.executions.count(), 2);
      assert.equal(await reopened.claims.claim('held', 'someone else', 600_000), false);

      // Still writable after reopen.
      const later = makeTask();
      await reopened.tasks.put(later);
      assert.deepEqual(await reopened.tasks.get(later.id), later);
    });
  });
}
