// A team for access tests: users of each role made through the storage (as an admin's invitation would leave them)
// and logged in over HTTP, and named API keys made through the API.
import crypto from 'node:crypto';
import type { Role, Scope } from '../../kernel/contracts/records.js';
import { hashPassword } from '../../providers/auth/local/password.js';
import { sessionCookie, type TestService } from './service.js';

const PASSWORD = 'a team member password';

/** A user with `role` in the service's storage; resolves to a session cookie of theirs. */
export async function loginAs(svc: TestService, role: Role): Promise<string> {
  const email = `${role}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  await svc.service.services.storage.users.put({
    id: `usr_${crypto.randomBytes(9).toString('base64url')}`, name: `An ${role}`, email,
    passwordHash: await hashPassword(PASSWORD), createdAt: new Date().toISOString(), role,
  });
  const login = await svc.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login as ${role} failed: ${login.status} ${login.text}`);
  return sessionCookie(login.headers);
}

export interface KeyOptions { scopes: Scope[]; taskIds?: string[]; expiresAt?: string; name?: string }

/** A named key made by the admin (`cookie`); resolves to the full key and its id. */
export async function createKey(svc: TestService, cookie: string, options: KeyOptions): Promise<{ key: string; id: string }> {
  const res = await svc.request('POST', '/api/keys', { cookie, body: { name: options.name ?? options.scopes.join('+'), ...options } });
  if (res.status !== 201) throw new Error(`creating a key failed: ${res.status} ${res.text}`);
  return { key: res.body.key, id: res.body.apiKey.id };
}
