export const AUTH_CONTRACT_VERSION = 1;

/** A user as the API shows it: never a password hash. */
export interface PublicUser {
  id: string;
  name: string;
  email: string;
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

/**
 * The auth capability: accounts, sessions and the system API key.
 * Failures throw catalogue errors: ALREADY_INITIALIZED, INVALID_CREDENTIALS, VALIDATION_ERROR.
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
}
