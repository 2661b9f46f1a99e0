import type { UserRecord } from '../../../kernel/contracts/records.js';

/**
 * Users are unique by email, ignoring case. The database providers keep this lower-cased copy beside
 * each user under a unique index; users without an email have none, so they never collide.
 */
export const emailLowerOf = (user: UserRecord): string | null => (typeof user.email === 'string' ? user.email.toLowerCase() : null);

/** Whether a failed write broke the product's unique index on the lower-cased email. */
export type IsEmailTaken = (error: unknown) => boolean;

const emailTaken = (user: UserRecord, cause: unknown): TypeError =>
  new TypeError(`users: another user already has the email ${String(user.email)} (emails are unique, ignoring case)`, { cause });

/** Waits for a write of `user`; a unique-email violation rejects with an error saying so, any other failure as it was. */
export async function explainEmailTaken<R>(write: Promise<R>, user: UserRecord, isEmailTaken: IsEmailTaken): Promise<R> {
  try {
    return await write;
  } catch (error) {
    throw isEmailTaken(error) ? emailTaken(user, error) : error;
  }
}

/**
 * The same for an update: the user named is the last one `change` returned (the one being written).
 * When `change` returned none, nothing was written and the failure passes through as it was.
 */
export async function explainEmailTakenOnUpdate(
  update: (change: (current: UserRecord) => UserRecord | undefined) => Promise<UserRecord | undefined>,
  change: (current: UserRecord) => UserRecord | undefined,
  isEmailTaken: IsEmailTaken,
): Promise<UserRecord | undefined> {
  let next: UserRecord | undefined;
  try {
    return await update((current) => (next = change(current)));
  } catch (error) {
    throw next && isEmailTaken(error) ? emailTaken(next, error) : error;
  }
}
