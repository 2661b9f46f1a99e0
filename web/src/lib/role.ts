import type { Role } from '../api/types';

/**
 * The signed-in user's role, so screens hide what it may not do (the service refuses it anyway). A user without
 * one is the first admin, and so is the trusted caller of AUTH_DISABLED.
 */
let current: Role = 'admin';

export function setCurrentRole(role: Role | undefined): void {
  current = role ?? 'admin';
}

/** True unless the user only reads (a viewer): saving, running, deleting. */
export const canChange = (): boolean => current !== 'viewer';

/** True for an admin: users and invitations, settings. */
export const isAdmin = (): boolean => current === 'admin';

/** The signed-in user's role (admin when there is no user: the first admin, AUTH_DISABLED). */
export const currentRole = (): Role => current;
