// One loader for every capability: each provider declares its variables (TypeBox) and receives them, checked,
// from the kernel (registry.create), under its own prefix; a bad or missing one stops start-up with one line.
// The registry takes a provider built for an older minor of its contract, and refuses another major.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { ConfigError, loadConfig } from '../../kernel/config.js';
import { AUTH_CONTRACT_VERSION, type AuthProvider } from '../../kernel/contracts/auth.js';
import { defineProvider } from '../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION, type StorageProvider } from '../../kernel/contracts/storage.js';
import { checkConfig, readModuleConfig } from '../../kernel/module-config.js';
import { createOutboundClient, createOutboundGuard } from '../../kernel/outbound/index.js';
import { Registry } from '../../kernel/registry.js';
import { providers } from '../../app/built-ins.js';
import { recordingLogger } from '../providers/storage/json-harness.js';

const sqliteSchema = Type.Object({
  PATH: Type.String({ description: 'a file name' }),
  BUSY_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 5000 }),
  WAL: Type.Optional(Type.Boolean()),
  KEY: Type.Optional(Type.Refine(Type.String(), (value) => value.length === 8, () => 'must be 8 characters')),
});

/** A third-party storage provider: only what it reads differs from a built-in one. */
function sqlite(seen: unknown[]) {
  return defineProvider({
    capability: 'storage',
    id: 'sqlite',
    contractVersion: STORAGE_CONTRACT_VERSION,
    configPrefix: 'SQLITE_',
    configSchema: sqliteSchema,
    async create(context) {
      seen.push(context.config);
      return { kind: 'sqlite' } as unknown as StorageProvider;
    },
  });
}

function registryWith(seen: unknown[] = []): Registry {
  const registry = new Registry();
  registry.addModule({ providers: [...providers, sqlite(seen)] });
  return registry;
}

const configured = (registry: Registry, env: Record<string, string>) => {
  const config = loadConfig({ DATA_DIR: '/nonexistent', ...env });
  checkConfig(config, registry);
  return config;
};

const oneLine = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ConfigError, String(error));
  assert.match(error.message, pattern);
  assert.ok(!error.message.includes('\n'));
  return true;
};

describe('provider configuration', () => {
  it('hands the chosen provider its own variables, under its prefix, converted and with defaults', async () => {
    const seen: unknown[] = [];
    const registry = registryWith(seen);
    const config = configured(registry, { STORAGE: 'sqlite', SQLITE_PATH: ' /data/taskloom.db ', SQLITE_WAL: 'on', PATH: '/usr/bin' });
    const guard = createOutboundGuard({ allowPrivateNetworks: false });
    registry.configure({ config, logger: recordingLogger(), outbound: { guard, client: createOutboundClient(guard) }, signal: new AbortController().signal });
    const storage = await registry.create('storage', 'sqlite');
    assert.equal(storage.kind, 'sqlite');
    assert.deepEqual(seen, [{ PATH: '/data/taskloom.db', BUSY_TIMEOUT_MS: 5000, WAL: true }]);
  });

  it('stops on a missing or bad variable of the chosen provider with one line naming it', () => {
    const registry = registryWith();
    assert.throws(() => configured(registry, { STORAGE: 'sqlite' }), oneLine(/^Invalid configuration: SQLITE_PATH is required when STORAGE=sqlite$/));
    assert.throws(() => configured(registry, { STORAGE: 'sqlite', SQLITE_PATH: 'x', SQLITE_BUSY_TIMEOUT_MS: 'soon' }),
      oneLine(/^Invalid configuration: SQLITE_BUSY_TIMEOUT_MS is "soon"; expected a whole number from 0 to 60000$/));
    assert.throws(() => configured(registry, { STORAGE: 'sqlite', SQLITE_PATH: 'x', SQLITE_WAL: 'maybe' }), oneLine(/SQLITE_WAL is "maybe"; expected true or false/));
    assert.throws(() => configured(registry, { STORAGE: 'sqlite', SQLITE_PATH: 'x', SQLITE_KEY: 'hunter2' }), (error: unknown) => {
      oneLine(/^Invalid configuration: SQLITE_KEY must be 8 characters$/)(error);
      assert.ok(!(error as Error).message.includes('hunter2'), 'a refined value is never repeated');
      return true;
    });
  });

  it('checks a provider that is not chosen only for the variables that are set', () => {
    const registry = registryWith();
    assert.doesNotThrow(() => configured(registry, {}));
    assert.throws(() => configured(registry, { SQLITE_WAL: 'maybe' }), oneLine(/SQLITE_WAL/));
    assert.throws(() => configured(registry, { DATABASE_URL: 'mysql://db/x' }), oneLine(/^Invalid configuration: DATABASE_URL must use postgres: or postgresql:, not mysql:$/));
  });

  it('gives each provider only its own variables, and none to a provider without a schema', () => {
    const variables = loadConfig({ SQLITE_PATH: 'a', DATABASE_URL: 'postgres://db/x', SECRET: 's' }).variables;
    assert.deepEqual(readModuleConfig(sqlite([]), variables, { required: false }), { PATH: 'a', BUSY_TIMEOUT_MS: 5000 });
    assert.deepEqual(readModuleConfig(providers.find((p) => p.id === 'json')!, variables, { required: true }), {});
  });

  it('says which ids exist when a capability names one no module registers', () => {
    const registry = new Registry();
    registry.addModule({ providers });
    assert.throws(() => configured(registry, { STORAGE: 'sqlite' }), oneLine(/STORAGE is "sqlite"; expected one of json, postgres, mongodb/));
    assert.throws(() => configured(registry, { AUTH_PROVIDER: 'proxy-header' }), oneLine(/AUTH_PROVIDER is "proxy-header"; expected one of local /));
  });
});

describe('contract versions', () => {
  const auth = (contractVersion: string) => defineProvider({
    capability: 'auth', id: `auth-${contractVersion}`, contractVersion: contractVersion as typeof AUTH_CONTRACT_VERSION,
    create: async () => ({}) as AuthProvider,
  });

  it('are major.minor, defined once per contract', () => {
    assert.match(AUTH_CONTRACT_VERSION, /^\d+\.\d+$/);
    assert.match(STORAGE_CONTRACT_VERSION, /^\d+\.\d+$/);
  });

  it('take a provider built for an older minor the contract accepts, and this one', () => {
    const registry = new Registry();
    assert.equal(AUTH_CONTRACT_VERSION, '1.2');
    registry.addProvider(auth('1.0'));
    registry.addProvider(auth('1.1'));
    registry.addProvider(auth('1.2'));
    // A provider written before minor versions named its major as a number.
    registry.addProvider({ ...auth('1.0'), id: 'numbered', contractVersion: 1 as never });
    assert.deepEqual(registry.providerIds('auth'), ['auth-1.0', 'auth-1.1', 'auth-1.2', 'numbered']);
  });

  it('refuse another major, a newer minor and a malformed version, saying why', () => {
    const registry = new Registry();
    assert.throws(() => registry.addProvider(auth('2.0')), /^Error: provider auth\/auth-2\.0 is built for auth contract 2\.0, another major version: this taskloom speaks auth contract 1\.2; use a release of it built for 1\.x$/);
    assert.throws(() => registry.addProvider(auth('1.3')), /built for auth contract 1\.3, newer than this taskloom speaks auth contract 1\.2: upgrade taskloom/);
    assert.throws(() => registry.addProvider(auth('one')), /declares contract version "one"; expected major\.minor/);
    const storage = defineProvider({ capability: 'storage', id: 'old', contractVersion: '1.0', create: async () => ({}) as StorageProvider });
    assert.throws(() => registry.addProvider(storage), /storage contract 1\.0, another major version/);
  });
});
