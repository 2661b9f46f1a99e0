/** The settings key of the browser pool's cookie jar (layers/browser-pool/settings-cookie-store.ts). */
const COOKIE_JAR_KEY = 'browser.cookies';

/**
 * Which stored values are secrets, sealed at rest in every store. Settings named here are sealed whole; every
 * field of a credential's `config` but `baseUrl` is sealed (the token, and whatever secret a third-party output
 * provider keeps there). Not here: password, API key and session hashes (hashes, not secrets to hide).
 */
export const SECRET_SETTINGS: readonly string[] = [
  /** The cookie signing secret (kernel/server.ts). */
  'sessionSecret',
  /** AI provider keys of slots A to D (settings plugin). */
  'settings.aiProviderKeys',
  /** User proxies with their passwords (settings plugin). */
  'settings.proxies',
  /** The VNC password of the headful browser (headful plugin). */
  'headful.vncPassword',
  /** Webhook subscriptions with their signing secrets, and the system secret signing run callbacks (webhooks plugin). */
  'webhooks.endpoints',
  'webhooks.systemSecret',
  /** The shared cookie jar: the browser's logins on other sites (the browser pool). */
  COOKIE_JAR_KEY,
];

/** Settings key of the value that proves, at start-up, that this instance has the key the store was sealed with. */
export const KEY_CHECK_SETTING = 'secrets.keyCheck';

export const isSecretSetting = (key: string): boolean => SECRET_SETTINGS.includes(key);

/** Credential config fields kept in clear: what lists and checks need without the key. */
const PUBLIC_CREDENTIAL_FIELDS = new Set(['baseUrl']);

export const isSecretCredentialField = (field: string): boolean => !PUBLIC_CREDENTIAL_FIELDS.has(field);

/** The additional data that binds a sealed value to its place. */
export const settingPlace = (key: string): string => `settings:${key}`;
export const credentialPlace = (id: string, field: string): string => `credentials:${id}:${field}`;
