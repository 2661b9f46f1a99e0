import crypto from 'node:crypto';
import type { AccountAdmin, ManagedUser } from '../../../kernel/contracts/auth.js';
import type { Role, UserRecord } from '../../../kernel/contracts/records.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors } from '../../../kernel/errors.js';
import { createInvitations } from './invitations.js';
import { hashPassword } from './password.js';
import { endSessionsOf, roleOf } from './sessions.js';

export const newUserId = () => `usr_${crypto.randomBytes(9).toString('base64url')}`;

const toManaged = (user: UserRecord): ManagedUser => ({
  id: user.id, name: user.name, email: user.email, role: roleOf(user), createdAt: user.createdAt,
  ...(user.lastLoginAt ? { lastLoginAt: user.lastLoginAt } : {}),
});

/** Runs the account changes of this process one after another (the last-admin rule reads, then writes). */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(section: () => Promise<R>): Promise<R> => {
    const result = tail.then(section);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * The local provider's team accounts over the storage's users and sessions. The last-admin rule holds for the
 * changes of one process; two instances demoting their last two admins in the same instant could both pass it.
 */
export function createAccountAdmin(storage: StorageProvider): AccountAdmin {
  const inTurn = serial();

  async function found(id: string): Promise<UserRecord> {
    const user = await storage.users.get(id);
    if (!user) throw Errors.USER_NOT_FOUND({ id });
    return user;
  }

  /** Throws LAST_ADMIN when `user` is an admin and no other admin exists. */
  async function keepAnAdmin(user: UserRecord): Promise<void> {
    if (roleOf(user) !== 'admin') return;
    const admins = (await storage.users.list()).filter((other) => roleOf(other) === 'admin' && other.id !== user.id);
    if (admins.length === 0) throw Errors.LAST_ADMIN({ name: user.name });
  }

  /** Stores a new user; EMAIL_TAKEN when the address is in use (checked first; the databases' unique index settles races). */
  async function insert(input: { name: string; email: string; password: string; role: Role }): Promise<UserRecord> {
    const email = input.email.trim().toLowerCase();
    if (await storage.users.findByEmail(email)) throw Errors.EMAIL_TAKEN({ email });
    const user: UserRecord = {
      id: newUserId(), name: input.name.trim(), email, role: input.role,
      passwordHash: await hashPassword(input.password), createdAt: new Date().toISOString(),
    };
    return inTurn(async () => {
      if (await storage.users.findByEmail(email)) throw Errors.EMAIL_TAKEN({ email });
      try {
        return await storage.users.put(user);
      } catch (error) {
        if (await storage.users.findByEmail(email)) throw Errors.EMAIL_TAKEN({ email });
        throw error;
      }
    });
  }

  const invitations = createInvitations(storage, insert);

  return {
    async list() {
      const users = await storage.users.list();
      return users.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(toManaged);
    },

    async create(input) {
      return toManaged(await insert(input));
    },

    setRole(id, role) {
      return inTurn(async () => {
        const user = await found(id);
        if (role !== 'admin') await keepAnAdmin(user);
        const changed = await storage.users.update(id, (current) => ({ ...current, role }));
        if (!changed) throw Errors.USER_NOT_FOUND({ id });
        return toManaged(changed);
      });
    },

    remove(id) {
      return inTurn(async () => {
        const user = await found(id);
        await keepAnAdmin(user);
        await storage.users.delete(id);
        await endSessionsOf(storage, id);
      });
    },

    ...invitations,
  };
}
