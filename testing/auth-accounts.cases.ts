// The auth contract's cases for `accounts` (optional since 1.2), run by authContract on a provider that offers it.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { AccountAdmin, AuthProvider } from '../kernel/contracts/auth.js';
import { Errors, type ErrorDefinition } from '../kernel/errors.js';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;

async function refusedWith(error: ErrorDefinition, promise: Promise<unknown>): Promise<void> {
  const outcome = await promise.then((value) => ({ value }), (reason: unknown) => ({ reason }));
  assert.ok('reason' in outcome, `expected ${error.code}, got ${JSON.stringify((outcome as { value: unknown }).value)}`);
  assert.ok(error.is(outcome.reason), `expected ${error.code}, got ${String(outcome.reason)}`);
}

export function accountCases(name: string, auth: () => AuthProvider): void {
  describe('accounts administration (optional since 1.2)', () => {
    /** The provider's accounts with its first admin made, or a skip saying why. */
    const withAdmin = async (t: TestContext): Promise<{ accounts: AccountAdmin; adminId: string } | undefined> => {
      const accounts = auth().accounts;
      if (!accounts) return void t.skip(`${name} offers no accounts administration`);
      const admin = await auth().setup({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
      return { accounts, adminId: admin.id! };
    };

    it('lists the first admin as admin; a created user logs in with their password and role', async (t) => {
      const ready = await withAdmin(t);
      if (!ready) return;
      const created = await ready.accounts.create({ name: 'Ed', email: 'Ed@Example.com', password: PASSWORD, role: 'editor' });
      assert.deepEqual([created.email, created.role], ['ed@example.com', 'editor']);
      assert.equal(Object.keys(created).some((key) => /password|hash/i.test(key)), false, 'a hash in the answer');
      const login = await auth().login('ed@example.com', PASSWORD);
      assert.equal(login.user.role, 'editor');
      const list = await ready.accounts.list();
      assert.deepEqual(list.map((u) => [u.email, u.role]), [['ada@example.com', 'admin'], ['ed@example.com', 'editor']]);
      assert.ok(Date.parse(list[1]!.lastLoginAt ?? '') > 0, 'the login is noted');
      await refusedWith(Errors.EMAIL_TAKEN, ready.accounts.create({ name: 'Twin', email: 'ED@example.com', password: PASSWORD, role: 'viewer' }));
    });

    it('a role change shows in the live session; removing a user ends their sessions; one admin always stays', async (t) => {
      const ready = await withAdmin(t);
      if (!ready) return;
      const { accounts, adminId } = ready;
      const val = await accounts.create({ name: 'Val', email: 'val@example.com', password: PASSWORD, role: 'admin' });
      const session = await auth().login('val@example.com', PASSWORD);
      assert.equal((await accounts.setRole(val.id, 'viewer')).role, 'viewer');
      assert.equal((await auth().resolveSession(session.token))?.role, 'viewer');
      await refusedWith(Errors.LAST_ADMIN, accounts.setRole(adminId, 'editor'));
      await refusedWith(Errors.LAST_ADMIN, accounts.remove(adminId));
      await accounts.remove(val.id);
      assert.equal(await auth().resolveSession(session.token), undefined, 'the removed user\'s session still resolves');
      await refusedWith(Errors.USER_NOT_FOUND, accounts.remove(val.id));
      await refusedWith(Errors.USER_NOT_FOUND, accounts.setRole(val.id, 'admin'));
    });

    it('an invitation is accepted once, with its email and role; a revoked or expired one is refused', async (t) => {
      const ready = await withAdmin(t);
      if (!ready) return;
      const { accounts } = ready;
      const { invitation, token } = await accounts.invite({ email: 'Eve@example.com', role: 'viewer', expiresInMs: DAY });
      assert.equal(Object.keys(invitation).some((key) => /token|hash/i.test(key)), false, 'the token in the invitation');
      assert.deepEqual((await accounts.invitations()).map((i) => i.id), [invitation.id]);
      await refusedWith(Errors.EMAIL_TAKEN, accounts.invite({ email: 'eve@example.com', role: 'admin', expiresInMs: DAY }));
      const login = await accounts.acceptInvitation(token, { name: 'Eve', password: PASSWORD });
      assert.deepEqual([login.user.email, login.user.role], ['eve@example.com', 'viewer']);
      assert.equal((await auth().resolveSession(login.token))?.email, 'eve@example.com');
      await refusedWith(Errors.INVITATION_UNUSABLE, accounts.acceptInvitation(token, { name: 'Again', password: PASSWORD }));
      assert.deepEqual(await accounts.invitations(), []);

      const revoked = await accounts.invite({ email: 'rev@example.com', role: 'editor', expiresInMs: DAY });
      await accounts.revokeInvitation(revoked.invitation.id);
      await refusedWith(Errors.INVITATION_UNUSABLE, accounts.acceptInvitation(revoked.token, { name: 'Rev', password: PASSWORD }));
      await refusedWith(Errors.INVITATION_NOT_FOUND, accounts.revokeInvitation(revoked.invitation.id));
      const expired = await accounts.invite({ email: 'late@example.com', role: 'editor', expiresInMs: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await refusedWith(Errors.INVITATION_UNUSABLE, accounts.acceptInvitation(expired.token, { name: 'Late', password: PASSWORD }));
      await refusedWith(Errors.INVITATION_NOT_FOUND, accounts.acceptInvitation(`${revoked.token}x`, { name: 'Forger', password: PASSWORD }));
      await refusedWith(Errors.INVALID_CREDENTIALS, auth().login('late@example.com', PASSWORD));
    });
  });
}
