// Invitations: an admin names an email and a role and gets a one-time link; the invitee sets a name and a password
// and is logged in. A used, revoked or expired link is refused saying which; the token is kept only as a hash.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCEPT_FAILURES_PER_ADDRESS } from '../../plugins/auth/invitation-routes.js';
import { readTree } from '../support/planted-secrets.js';
import { sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

const PASSWORD = 'invited and welcome';

describe('users: invitations', () => {
  let svc: TestService;
  let admin: string;
  before(async () => {
    svc = await startService();
    ({ cookie: admin } = await setupAdmin(svc));
  });
  after(async () => { await svc.close(); });

  const invite = async (email: string, role: string, extra: object = {}) => {
    const res = await svc.request('POST', '/api/invitations', { cookie: admin, body: { email, role, ...extra } });
    assert.equal(res.status, 200, res.text);
    return res.body as { token: string; url: string; invitation: { id: string; email: string; role: string; expiresAt: string } };
  };
  const accept = (token: string, name = 'Invited Person', password = PASSWORD) =>
    svc.request('POST', '/api/invitations/accept', { body: { token, name, password } });

  it('invite, accept, log in as an editor; the link is shown once and then only the pending entry, without its token', async () => {
    const created = await invite('Eve@Example.com', 'editor');
    assert.equal(created.invitation.email, 'eve@example.com');
    assert.equal(created.url, `${svc.baseUrl}/invitation#${created.token}`);
    const week = Date.parse(created.invitation.expiresAt) - Date.now();
    assert.ok(week > 6.9 * 86_400_000 && week <= 7 * 86_400_000, `expires in ${week} ms: the default is 7 days`);

    const pending = await svc.request('GET', '/api/invitations', { cookie: admin });
    assert.deepEqual(pending.body.invitations.map((i: any) => i.id), [created.invitation.id]);
    const secret = created.token.split('.')[1]!;
    assert.ok(!pending.text.includes(secret), 'the token is in the list');
    assert.doesNotMatch(pending.text, /tokenHash/);

    const accepted = await accept(created.token, 'Eve Editor');
    assert.deepEqual([accepted.status, accepted.body], [200, { success: true }]);
    const me = await svc.request('GET', '/api/auth/me', { cookie: sessionCookie(accepted.headers) });
    assert.deepEqual([me.body.user.name, me.body.user.email, me.body.user.role], ['Eve Editor', 'eve@example.com', 'editor']);
    const login = await svc.request('POST', '/api/auth/login', { body: { email: 'eve@example.com', password: PASSWORD } });
    assert.equal(login.status, 200);
    assert.deepEqual((await svc.request('GET', '/api/invitations', { cookie: admin })).body.invitations, [], 'no longer pending');

    const reused = await accept(created.token, 'Mallory');
    assert.deepEqual([reused.status, reused.body.error], [410, 'INVITATION_UNUSABLE']);
    assert.match(reused.body.details, /was used already/);

    // Only a hash of the token reaches the data folder; the password only as its scrypt hash.
    const tree = await readTree(svc.dataDir);
    assert.ok(tree.includes(created.invitation.id), 'the invitation is stored under DATA_DIR');
    assert.ok(!tree.includes(secret), 'the token is stored as it was sent');
    assert.ok(!tree.includes(PASSWORD), 'the password is stored as it was sent');
  });

  it('an expired invitation and a revoked one are refused saying why; a token that names nothing is 404', async () => {
    const created = await invite('late@example.com', 'viewer', { expiresInHours: 1 });
    // Moved an hour and a second into the past, as the clock would after an hour.
    await svc.service.services.storage.settings.update<any[]>('auth.invitations', (all) => all!.map((i) =>
      i.id === created.invitation.id ? { ...i, expiresAt: new Date(Date.now() - 1000).toISOString() } : i));
    const expired = await accept(created.token);
    assert.deepEqual([expired.status, expired.body.error], [410, 'INVITATION_UNUSABLE']);
    assert.match(expired.body.details, /expired at/);

    const revocable = await invite('maybe@example.com', 'viewer');
    assert.deepEqual((await svc.request('DELETE', `/api/invitations/${revocable.invitation.id}`, { cookie: admin })).body, { success: true });
    const revoked = await accept(revocable.token);
    assert.deepEqual([revoked.status, revoked.body.error], [410, 'INVITATION_UNUSABLE']);
    assert.match(revoked.body.details, /revoked/);
    assert.equal((await svc.request('DELETE', `/api/invitations/${revocable.invitation.id}`, { cookie: admin })).status, 404);

    const forged = `${revocable.invitation.id}.${'A'.repeat(43)}`;
    for (const token of [forged, 'nothing-here', `${created.token}.x`]) {
      const res = await accept(token);
      assert.deepEqual([res.status, res.body.error], [404, 'INVITATION_NOT_FOUND'], token);
    }
    assert.equal((await svc.request('POST', '/api/auth/login', { body: { email: 'maybe@example.com', password: PASSWORD } })).status, 401);
  });

  it('refuses an invitation for an email that has a user or a pending invitation', async () => {
    await invite('twice@example.com', 'viewer');
    for (const email of ['twice@example.com', 'ada@example.com']) {
      const res = await svc.request('POST', '/api/invitations', { cookie: admin, body: { email, role: 'viewer' } });
      assert.deepEqual([res.status, res.body.error], [409, 'EMAIL_TAKEN'], email);
    }
  });

  it('of two acceptances of one link at once, exactly one makes the account', async () => {
    const created = await invite('race@example.com', 'viewer');
    const answers = await Promise.all([accept(created.token, 'One'), accept(created.token, 'Two')]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 410]);
    const users = (await svc.request('GET', '/api/users', { cookie: admin })).body.users.filter((u: any) => u.email === 'race@example.com');
    assert.equal(users.length, 1);
  });

});

describe('users: accepting invitations is rate-limited', () => {
  let svc: TestService;
  before(async () => { svc = await startService(); await setupAdmin(svc); });
  after(async () => { await svc.close(); });
  const accept = (token: string) => svc.request('POST', '/api/invitations/accept', { body: { token, name: 'Guess', password: PASSWORD } });

  it(`answers 429 RATE_LIMITED with Retry-After after ${ACCEPT_FAILURES_PER_ADDRESS} failed acceptances from one address`, async () => {
    for (let i = 0; i < ACCEPT_FAILURES_PER_ADDRESS; i++) assert.equal((await accept(`inv_none.${i}`)).status, 404);
    const limited = await accept('inv_none.more');
    assert.deepEqual([limited.status, limited.body.error], [429, 'RATE_LIMITED']);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });
});
