import os from 'node:os';
import pg from 'pg';

/**
 * pg takes its default user name from $USER, which containers and CI often leave unset, and then
 * fails with "no PostgreSQL user name specified"; libpq (psql) takes the operating-system account.
 * Filling pg's default rather than the connection's `user` keeps the URL's user and then PGUSER
 * ahead of it, as in psql. Only a missing default is filled.
 */
export function fillDefaultUser(): void {
  if (pg.defaults.user) return;
  try {
    pg.defaults.user = os.userInfo().username;
  } catch {
    // No account entry for this uid (an arbitrary container uid): DATABASE_URL or PGUSER must name the user.
  }
}
