import { Type } from 'typebox';
import type { KeyConfig } from './load-keyring.js';
import { SECRET_KEY_FORMAT, parseSecretKey } from './secret-key.js';

/** Why a comma-separated list of keys is refused (`single`: only one key may be given); undefined when it is fine. */
function keysProblem(value: string, single?: string): string | undefined {
  if (single && value.includes(',')) return `must be ${single}`;
  return value.split(',').every((part) => parseSecretKey(part)) ? undefined : `must be ${SECRET_KEY_FORMAT}`;
}

/** A refined key list: its message names the format and never the value (a secret). */
const keys = (single?: string) => Type.Refine(Type.String(), (value) => !keysProblem(value, single), (value) => keysProblem(value, single) ?? '');

/** The variables of the sealing layer (read through the kernel). */
export const sealingSettings = Type.Object({
  /** Seals secrets at rest (32 bytes); unset: DATA_DIR/secrets.key, generated once. */
  SECRETS_KEY: Type.Optional(keys('one key; older keys go in SECRETS_KEY_PREVIOUS')),
  /** Comma-separated keys that still open secrets sealed before a rotation. */
  SECRETS_KEY_PREVIOUS: Type.Optional(keys()),
});

/** The keys the settings name, as the keyring takes them. */
export function keyConfig(settings: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string }, dataDir: string): KeyConfig {
  const parse = (text: string | undefined) => (text ?? '').split(',').filter((part) => part.trim() !== '').map((part) => parseSecretKey(part)!);
  return { dataDir, secretsKey: parse(settings.SECRETS_KEY)[0], previousSecretsKeys: parse(settings.SECRETS_KEY_PREVIOUS) };
}

/** The keys a service's configuration names (its variables, checked at start-up, and DATA_DIR). */
export function keysOf(config: { dataDir: string; variables: Readonly<Record<string, string>> }): KeyConfig {
  return keyConfig({ SECRETS_KEY: config.variables.SECRETS_KEY, SECRETS_KEY_PREVIOUS: config.variables.SECRETS_KEY_PREVIOUS }, config.dataDir);
}
