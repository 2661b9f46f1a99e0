// The secrets of team access (an invitation's token, the passwords set on joining or by an admin, their hashes)
// appear in no answer but the one that creates the token, and in no line of the real service's log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';

describe('users: secrets stay out of answers and logs', () => {
  let service: ServiceProcess;
  before(async () => { service = await spawnService({ DATA_DIR: await makeTempDir(), LOG_LEVEL: 'debug' }); });
  after(async () => { await service?.stop(); });

  it('never answers or logs a token, a password or a hash', async () => {
    const base = service.baseUrl;
    const answers: string[] = [];
    const call = async (method: string, url: string, options: Parameters<typeof request>[3] = {}) => {
      const res = await request(base, method, url, options);
      answers.push(res.text);
      return res;
    };
    const admin = sessionCookie((await call('POST', '/api/auth/setup', { body: ADMIN })).headers);
    const joinPassword = 'PLANTED-join-password-5d1c';
    const setPassword = 'PLANTED-admin-set-password-77ae';
    await call('POST', '/api/users', { cookie: admin, body: { name: 'Set', email: 'set@example.com', password: setPassword, role: 'viewer' } });
    const created = await request(base, 'POST', '/api/invitations', { cookie: admin, body: { email: 'join@example.com', role: 'editor' } });
    const token: string = created.body.token;
    const secret = token.split('.')[1]!;
    assert.ok(created.text.includes(token), 'the creation answer carries the token, once');
    const joined = await call('POST', '/api/invitations/accept', { body: { token, name: 'Joiner', password: joinPassword } });
    assert.equal(joined.status, 200, joined.text);
    await call('POST', '/api/invitations/accept', { body: { token, name: 'Again', password: joinPassword } });
    await call('POST', '/api/auth/login', { body: { email: 'set@example.com', password: setPassword } });
    await call('GET', '/api/users', { cookie: admin });
    await call('GET', '/api/invitations', { cookie: admin });
    await call('GET', '/api/auth/me', { cookie: sessionCookie(joined.headers) });

    // pino writes asynchronously: wait for the line of the last request.
    const deadline = Date.now() + 10_000;
    while (!service.output().includes('/api/auth/me') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const log = service.output();
    assert.ok(log.includes('/api/invitations/accept'), 'the log has the requests');
    for (const [what, value] of [['token', secret], ['joining password', joinPassword], ['admin-set password', setPassword], ['scrypt hash', 'scrypt$']]) {
      assert.ok(!log.includes(value), `the ${what} is in the log`);
      for (const answer of answers) assert.ok(!answer.includes(value), `the ${what} is in an answer: ${answer.slice(0, 200)}`);
    }
  });
});
