import { isEnvelope, open, parseEnvelope, seal } from './envelope.js';
import type { SecretKey } from './secret-key.js';
import { SecretsError } from './secrets-error.js';

/** A key and where it came from (`SECRETS_KEY`, `DATA_DIR/secrets.key`, ...), for messages. */
export interface SourcedKey {
  key: SecretKey;
  source: string;
}

/** What to do when no key opens a sealed value: names the keys this instance has. */
export const MISSING_KEY_HINT =
  'set SECRETS_KEY to the key this store was sealed with (every instance sharing a database needs the same SECRETS_KEY), ' +
  'or restore DATA_DIR/secrets.key';

/**
 * The keys of this process: values are sealed with `current`; any key opens what it sealed (during a rotation the
 * store holds values of both the old and the new key). Values are JSON, sealed whole.
 */
export class Keyring {
  private readonly byId = new Map<string, SourcedKey>();

  constructor(readonly current: SourcedKey, others: readonly SourcedKey[] = []) {
    for (const sourced of [current, ...others]) if (!this.byId.has(sourced.key.id)) this.byId.set(sourced.key.id, sourced);
  }

  /** The keys that only open. */
  others(): SourcedKey[] {
    return [...this.byId.values()].filter((sourced) => sourced !== this.current);
  }

  has(keyId: string): boolean {
    return this.byId.has(keyId);
  }

  /** `<id> (<source>)` of every key, for messages. */
  describe(): string {
    return [...this.byId.values()].map(({ key, source }) => `${key.id} (${source})`).join(', ');
  }

  seal(value: unknown, aad: string): string {
    return seal(this.current.key, JSON.stringify(value), aad);
  }

  /** A sealed value opened; anything else is plain text from before encryption and is returned as it is. */
  open<V>(stored: unknown, aad: string): V {
    if (!isEnvelope(stored)) return stored as V;
    const envelope = parseEnvelope(stored)!;
    const sourced = this.byId.get(envelope.keyId);
    if (!sourced) {
      throw new SecretsError(`${aad} was sealed with key ${envelope.keyId}, which this instance does not have (it has ${this.describe()}): ${MISSING_KEY_HINT}`);
    }
    return JSON.parse(open(sourced.key, envelope, aad)) as V;
  }

  /** Whether a stored value is plain text, or sealed with a key other than `current`: what a rotation rewrites. */
  needsSealing(stored: unknown): boolean {
    return !isEnvelope(stored) || parseEnvelope(stored)!.keyId !== this.current.key.id;
  }

  /** The key id of a sealed value that no key of this ring opens; undefined otherwise (also for plain text). */
  unknownKeyOf(stored: unknown): string | undefined {
    if (!isEnvelope(stored)) return undefined;
    const { keyId } = parseEnvelope(stored)!;
    return this.byId.has(keyId) ? undefined : keyId;
  }
}
