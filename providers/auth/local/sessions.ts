import crypto from 'node:crypto';
import type { LoginResult, PublicUser } from '../../../kernel/contracts/auth.js';
import type { Role, UserRecord } from '../../../kernel/contracts/records.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';

const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A session is stored under a hash of its cookie token, never the token. */
export const sessionId = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** A user without a role is the spec's first admin (or was made before roles). */
export const roleOf = (user: UserRecord): Role => user.role ?? 'admin';

export const toPublic = (user: UserRecord): PublicUser => ({ id: user.id, name: user.name, email: user.email, role: roleOf(user) });

/** Starts a session for `user` (a login, an accepted invitation) and notes when they logged in. */
export async function openSession(storage: StorageProvider, user: UserRecord): Promise<LoginResult> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAtMs = now + SESSION_TTL_MS;
  await storage.sessions.put({ id: sessionId(token), userId: user.id, createdAt: new Date(now).toISOString(), expiresAtMs });
  await storage.users.update(user.id, (current) => ({ ...current, lastLoginAt: new Date(now).toISOString() }));
  // Housekeeping that no login waits for.
  void storage.sessions.deleteExpired(now).catch(() => undefined);
  return { user: toPublic(user), token, expiresAtMs };
}

/** Ends every session of `userId` (the user was removed). */
export async function endSessionsOf(storage: StorageProvider, userId: string): Promise<void> {
  const sessions = await storage.sessions.list();
  await Promise.all(sessions.filter((session) => session.userId === userId).map((session) => storage.sessions.delete(session.id)));
}
