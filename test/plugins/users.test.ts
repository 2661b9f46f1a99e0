// Team access, the users side: an admin adds people (a password they choose, or an invitation link), changes
// their role and removes them; every change holds for the users' live sessions at once; one admin always stays.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

const PASSWORD = 'a long team password';

async function login(svc: TestService, email: string, password = PASSWORD): Promise<string> {
  const res = await svc.request('POST', '/api/auth/login', { body: { email, password } });
  assert.equal(res.status, 200, res.text);
  return sessionCookie(res.headers);
}

describe('users: an admin manages the team', () => {
  let svc: TestService;
  let admin: string;
  before(async () => {
    svc = await startService();
    ({ cookie: admin } = await setupAdmin(svc));
  });
  after(async () => { await svc.close(); });

  it('adds a user with a password: they log in, and me carries their role', async () => {
    const created = await svc.request('POST', '/api/users', { cookie: admin, body: { name: 'Ed Editor', email: 'Ed@Example.com', password: PASSWORD, role: 'editor' } });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual([created.body.user.email, created.body.user.role], ['ed@example.com', 'editor']);
    assert.doesNotMatch(created.text, /password|scrypt|Hash/i);
    const cookie = await login(svc, 'ed@example.com');
    const me = await svc.request('GET', '/api/auth/me', { cookie });
    assert.deepEqual([me.body.user.email, me.body.user.role], ['ed@example.com', 'editor']);
    const again = await svc.request('POST', '/api/users', { cookie: admin, body: { name: 'Twin', email: 'ED@example.com', password: PASSWORD, role: 'viewer' } });
    assert.deepEqual([again.status, again.body.error], [409, 'EMAIL_TAKEN']);
  });

  it('lists every user with role, creation and last login; the first admin reads admin; no hash is shown', async () => {
    const list = await svc.request('GET', '/api/users', { cookie: admin });
    assert.equal(list.status, 200, list.text);
    const byEmail = new Map(list.body.users.map((u: any) => [u.email, u]));
    const first: any = byEmail.get(ADMIN.email);
    assert.equal(first.role, 'admin');
    assert.ok(Date.parse(first.createdAt) > 0 && Date.parse(first.lastLoginAt) > 0, JSON.stringify(first));
    assert.equal((byEmail.get('ed@example.com') as any).role, 'editor');
    assert.doesNotMatch(list.text, /scrypt|passwordHash/);
  });

  it('a role change holds for a live session at once, and a removed user\'s session ends at once', async () => {
    const created = await svc.request('POST', '/api/users', { cookie: admin, body: { name: 'Val', email: 'val@example.com', password: PASSWORD, role: 'admin' } });
    const id = created.body.user.id;
    const cookie = await login(svc, 'val@example.com');
    assert.equal((await svc.request('GET', '/api/users', { cookie })).status, 200, 'an admin may list users');
    const changed = await svc.request('PATCH', `/api/users/${id}`, { cookie: admin, body: { role: 'viewer' } });
    assert.deepEqual([changed.status, changed.body.user.role], [200, 'viewer']);
    assert.equal((await svc.request('GET', '/api/auth/me', { cookie })).body.user.role, 'viewer');
    const refused = await svc.request('GET', '/api/users', { cookie });
    assert.deepEqual([refused.status, refused.body.error], [403, 'FORBIDDEN'], 'the same session, now a viewer');
    const removed = await svc.request('DELETE', `/api/users/${id}`, { cookie: admin });
    assert.deepEqual([removed.status, removed.body], [200, { success: true }]);
    assert.equal((await svc.request('GET', '/api/auth/me', { cookie })).status, 401, 'the removed user\'s session ended');
    assert.equal((await svc.request('POST', '/api/auth/login', { body: { email: 'val@example.com', password: PASSWORD } })).status, 401);
    const gone = await svc.request('DELETE', `/api/users/${id}`, { cookie: admin });
    assert.deepEqual([gone.status, gone.body.error], [404, 'USER_NOT_FOUND']);
  });

  it('the last admin can be neither removed nor demoted; with a second admin they can', async () => {
    const users = (await svc.request('GET', '/api/users', { cookie: admin })).body.users;
    const first = users.find((u: any) => u.email === ADMIN.email);
    const demote = await svc.request('PATCH', `/api/users/${first.id}`, { cookie: admin, body: { role: 'editor' } });
    assert.deepEqual([demote.status, demote.body.error], [409, 'LAST_ADMIN']);
    assert.match(demote.body.details, /last admin/);
    const remove = await svc.request('DELETE', `/api/users/${first.id}`, { cookie: admin });
    assert.deepEqual([remove.status, remove.body.error], [409, 'LAST_ADMIN']);
    assert.equal((await svc.request('GET', '/api/auth/me', { cookie: admin })).body.user.role, 'admin');

    const second = await svc.request('POST', '/api/users', { cookie: admin, body: { name: 'Sam', email: 'sam@example.com', password: PASSWORD, role: 'admin' } });
    const sam = await login(svc, 'sam@example.com');
    const demoted = await svc.request('PATCH', `/api/users/${first.id}`, { cookie: sam, body: { role: 'editor' } });
    assert.deepEqual([demoted.status, demoted.body.user.role], [200, 'editor']);
    const back = await svc.request('PATCH', `/api/users/${first.id}`, { cookie: sam, body: { role: 'admin' } });
    assert.equal(back.status, 200);
    assert.equal((await svc.request('DELETE', `/api/users/${second.body.user.id}`, { cookie: admin })).status, 200);
  });

  it('editors and viewers may not manage users; the system API key may', async () => {
    const ed = await login(svc, 'ed@example.com');
    for (const [method, url, body] of [['GET', '/api/users'], ['POST', '/api/users', { name: 'X', email: 'x@example.com', password: PASSWORD, role: 'admin' }],
      ['GET', '/api/invitations'], ['POST', '/api/invitations', { email: 'y@example.com', role: 'admin' }]] as const) {
      const res = await svc.request(method, url, { cookie: ed, body });
      assert.deepEqual([res.status, res.body.error], [403, 'FORBIDDEN'], `${method} ${url}`);
    }
    const key = (await svc.request('POST', '/api/settings/api-key', { cookie: admin })).body.apiKey;
    assert.equal((await svc.request('GET', '/api/users', { apiKey: key })).status, 200);
    assert.equal((await svc.request('GET', '/api/users')).status, 401);
  });
});
