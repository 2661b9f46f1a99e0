import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSession, makeUser, type CurrentHarness } from './harness.js';

export function userSessionCases(current: CurrentHarness): void {
  const storage = () => current().storage;

  describe('users', () => {
    it('findByEmail matches case-insensitively', async () => {
      const user = makeUser({ email: 'Ada.Lovelace@Example.COM' });
      await storage().users.put(makeUser());
      await storage().users.put(user);
      assert.deepEqual(await storage().users.findByEmail('ada.lovelace@example.com'), user);
      assert.deepEqual(await storage().users.findByEmail('ADA.LOVELACE@EXAMPLE.COM'), user);
      assert.equal(await storage().users.findByEmail('nobody@example.com'), undefined);
    });

    it('findByEmail returns a copy', async () => {
      const user = makeUser();
      await storage().users.put(user);
      const found = await storage().users.findByEmail(user.email);
      assert.ok(found);
      found.name = 'changed';
      assert.deepEqual(await storage().users.get(user.id), user);
    });

    it('insertFirst stores exactly one of 20 concurrent first users', async () => {
      const candidates = Array.from({ length: 20 }, () => makeUser());
      const results = await Promise.all(candidates.map((user) => storage().users.insertFirst(user)));
      assert.equal(results.filter(Boolean).length, 1);
      const winner = candidates[results.indexOf(true)];
      assert.equal(await storage().users.count(), 1);
      assert.deepEqual(await storage().users.list(), [winner]);
    });

    it('insertFirst resolves false and stores nothing once a user exists', async () => {
      const existing = makeUser();
      await storage().users.put(existing);
      const late = makeUser();
      assert.equal(await storage().users.insertFirst(late), false);
      assert.equal(await storage().users.get(late.id), undefined);
      assert.equal(await storage().users.count(), 1);
    });
  });

  describe('sessions', () => {
    it('deleteExpired removes only sessions expiring before now and counts them', async () => {
      const now = Date.parse('2024-06-01T12:00:00.000Z');
      const expired = [makeSession({ expiresAtMs: now - 1 }), makeSession({ expiresAtMs: now - 86_400_000 })];
      const live = [makeSession({ expiresAtMs: now }), makeSession({ expiresAtMs: now + 60_000 })];
      for (const session of [expired[0], live[0], expired[1], live[1]]) await storage().sessions.put(session);
      assert.equal(await storage().sessions.deleteExpired(now), 2);
      assert.deepEqual(await storage().sessions.list(), live);
      assert.equal(await storage().sessions.deleteExpired(now), 0);
      assert.equal(await storage().sessions.count(), 2);
    });
  });
}
