// What each caller may do (issue 24), shared by the route guard (plugins/access) and the WebSocket upgrades
// (layers/websocket-upgrade), which never pass through route hooks.
import type { PublicUser } from '../../kernel/contracts/auth.js';
import type { Principal } from '../../kernel/services.js';
import type { Role, Scope } from '../../kernel/contracts/records.js';

export const ALL_SCOPES: readonly Scope[] = ['read', 'run', 'write', 'admin'];

/** What each role may do (issue 24): a viewer looks, an editor also runs and changes, an admin does everything. */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  viewer: ['read'],
  editor: ['read', 'run', 'write'],
  admin: ALL_SCOPES,
};

/**
 * The scopes a caller holds. A user without a role is the spec's first admin; the system API key and a trusted
 * caller (AUTH_DISABLED) hold every scope; a named key holds its own.
 */
export function scopesOf(principal: Principal): readonly Scope[] {
  switch (principal.kind) {
    case 'session': return userScopes(principal.user);
    case 'apiKey': return principal.key?.scopes ?? ALL_SCOPES;
    case 'trusted': return ALL_SCOPES;
    default: return [];
  }
}

/** A user's scopes: those of their role; a user without one is the spec's first admin. */
export function userScopes(user: PublicUser): readonly Scope[] {
  return ROLE_SCOPES[user.role ?? 'admin'] ?? [];
}

/** Who the caller is, for a refusal's hint: never the key itself. */
export function describeCaller(principal: Principal): string {
  if (principal.kind === 'session') return `your role (${principal.user.role ?? 'admin'})`;
  if (principal.kind === 'apiKey' && principal.key) return `the API key "${principal.key.name}"`;
  return 'this caller';
}
