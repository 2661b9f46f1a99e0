import type { ApiKey, Role, Scope, UserRecord } from './records.js';

/**
 * The auth contract's version (`major.minor`, see provider.ts). 1.1 added the optional `identify` (a provider
 * that knows the caller from the request itself), 1.2 the optional named API keys (`createApiKey` and the three
 * after it) and the optional `accounts` (a team's users, added by an admin); providers built for 1.0 or 1.1 are
 * accepted as they are.
 */
export const AUTH_CONTRACT_VERSION = '1.2';
export const AUTH_CONTRACT_ACCEPTS = '1.0';

/** A user as the API shows it: the user record (records.ts) without its password hash. */
export type PublicUser = Pick<UserRecord, 'id' | 'name' | 'email' | 'role'>;

/** A user as an admin sees them: with their role (never absent: the first admin's reads `admin`) and dates. */
export type ManagedUser = Required<Pick<UserRecord, 'id' | 'name' | 'email' | 'role' | 'createdAt'>> & Pick<UserRecord, 'lastLoginAt'>;

/**
 * A team's accounts, managed by an admin (auth contract 1.2). Every change holds at once for the users' live
 * sessions (resolveSession reads the current role; a removed user's sessions end). There is always one admin left:
 * removing or demoting the last one throws LAST_ADMIN. Emails are unique ignoring case (EMAIL_TAKEN).
 */
/**
 * An invitation to join, as answered: the invitee sets a name and password and gets an account with `email` and
 * `role`. Its one-time token is shown once, when it is made; how it is kept is the provider's business. ISO times;
 * `invitedBy` is the id of the admin who invited.
 */
export type Invitation = { id: string; email: string; role: Role; createdAt: string; expiresAt: string; invitedBy?: string };

export interface AccountAdmin {
  /** Every user, oldest first. */
  list(): Promise<ManagedUser[]>;
  /** Creates a user with a password the admin chose; throws EMAIL_TAKEN. */
  create(input: { name: string; email: string; password: string; role: Role }): Promise<ManagedUser>;
  /** Throws USER_NOT_FOUND, LAST_ADMIN. */
  setRole(id: string, role: Role): Promise<ManagedUser>;
  /** Removes the user and ends their sessions; throws USER_NOT_FOUND, LAST_ADMIN. */
  remove(id: string): Promise<void>;
  /** A pending invitation and its one-time token (shown once, only its hash kept); throws EMAIL_TAKEN. */
  invite(input: { email: string; role: Role; expiresInMs: number; invitedBy?: string }): Promise<{ invitation: Invitation; token: string }>;
  /** The invitations still pending (neither accepted, revoked nor expired), oldest first. */
  invitations(): Promise<Invitation[]>;
  /** Throws INVITATION_NOT_FOUND for an unknown id or one no longer pending. */
  revokeInvitation(id: string): Promise<void>;
  /**
   * Creates the invited account with `name` and `password` and logs it in. Throws INVITATION_NOT_FOUND for a token
   * that names no invitation, INVITATION_UNUSABLE (saying why) for one accepted, revoked or expired, EMAIL_TAKEN.
   */
  acceptInvitation(token: string, input: { name: string; password: string }): Promise<LoginResult>;
}

export interface LoginResult {
  user: PublicUser;
  /** Opaque session token for the cookie; only its hash is stored. */
  token: string;
  expiresAtMs: number;
}

export interface ApiKeyStatus {
  configured: boolean;
  /** A masked hint of the key (last 4 characters), or null when none is set. */
  preview: string | null;
}

/** What a valid named API key may do, as the route policy hands it on (`request.principal.key`). */
export type ApiKeyGrant = Pick<ApiKey, 'id' | 'name' | 'scopes' | 'taskIds'>;

/** What `createApiKey` is given. */
export interface NewApiKey {
  name: string;
  scopes: Scope[];
  taskIds?: string[] | null;
  /** ISO date after which the key is refused; null or absent: never. */
  expiresAt?: string | null;
}

/** What `identify` sees of a request. */
export interface AuthRequest {
  /** The request's headers, names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The address of the peer that opened the connection (a reverse proxy, when there is one in front), as the
   * socket has it: never taken from X-Forwarded-For.
   */
  remoteAddress: string;
}

/**
 * The auth capability: accounts, sessions and the system API key.
 * Failures throw catalogue errors: ALREADY_INITIALIZED, INVALID_CREDENTIALS, VALIDATION_ERROR.
 * A provider whose users live elsewhere (it knows them through `identify`) keeps no accounts: it reports no setup
 * required, refuses `setup` with ALREADY_INITIALIZED and every `login` with INVALID_CREDENTIALS.
 */
export interface AuthProvider {
  isSetupRequired(): Promise<boolean>;
  /** Creates the first admin; throws ALREADY_INITIALIZED once one exists. */
  setup(input: { name: string; email: string; password: string }): Promise<PublicUser>;
  /** Throws INVALID_CREDENTIALS for an unknown email or a wrong password (same timing either way). */
  login(email: string, password: string): Promise<LoginResult>;
  logout(token: string): Promise<void>;
  /** The user of a live session, or undefined for an unknown or expired token. */
  resolveSession(token: string): Promise<PublicUser | undefined>;
  /** Constant-time comparison against the stored hash. */
  verifyApiKey(key: string): Promise<boolean>;
  /** Stores `key` (or a generated one) as the system API key; resolves to the full key, shown once. */
  setApiKey(key?: string): Promise<string>;
  apiKeyStatus(): Promise<ApiKeyStatus>;
  /**
   * Optional (1.1): the user who made `request`, known from the request itself (an identity header set by a
   * trusted reverse proxy, say), asked before the session cookie and the API key; undefined lets those decide.
   * Throws a catalogue error (UNAUTHORIZED) to refuse the request outright. A user identified here counts as a
   * dashboard session.
   */
  identify?(request: AuthRequest): Promise<PublicUser | undefined>;
  /**
   * Optional (1.2, with the three below): stores a new named key (only its hash); resolves to the full key, shown
   * once, and the key as listed. Throws VALIDATION_ERROR for an expiry in the past.
   */
  createApiKey?(input: NewApiKey): Promise<{ key: string; apiKey: ApiKey }>;
  /** Every named key, revoked ones included, newest first. */
  listApiKeys?(): Promise<ApiKey[]>;
  /** Marks a key revoked from now on, on every instance sharing the storage; throws API_KEY_NOT_FOUND. */
  revokeApiKey?(id: string): Promise<ApiKey>;
  /**
   * What a presented named key may do, or undefined when it is no named key. Read from storage on every call (a
   * revocation counts at once). Throws UNAUTHORIZED, with a hint saying so, for a revoked or expired key.
   * Records the key's use (`lastUsedAt`), at most once a minute.
   */
  resolveApiKey?(key: string): Promise<ApiKeyGrant | undefined>;
  /** Optional (1.2): a team's accounts; a provider whose users live elsewhere leaves it out (and there are no user routes). */
  readonly accounts?: AccountAdmin;
}
