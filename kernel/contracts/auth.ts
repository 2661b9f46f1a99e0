import type { UserRecord } from './records.js';

/**
 * The auth contract's version (`major.minor`, see provider.ts). 1.1 added the optional `identify` (a provider
 * that knows the caller from the request itself); providers built for 1.0 are accepted as they are.
 */
export const AUTH_CONTRACT_VERSION = '1.1';
export const AUTH_CONTRACT_ACCEPTS = '1.0';

/** A user as the API shows it: the user record (records.ts) without its password hash. */
export type PublicUser = Pick<UserRecord, 'id' | 'name' | 'email'>;

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
}
