import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtInRegistry } from '../../app/service.js';
import { ConfigError, loadConfig as loadKernelConfig } from '../../kernel/config.js';
import { checkConfig, readModuleConfig } from '../../kernel/module-config.js';
import { browserPool } from '../../layers/browser-pool/index.js';
import { keysOf } from '../../layers/sealed-storage/settings.js';
import { playwrightBrowser } from '../../providers/browser/playwright/index.js';

const registry = await builtInRegistry();

/** What start-up does: the kernel's variables, then every provider's and plugin's against the built-in modules. */
function loadConfig(env: Record<string, string>) {
  const config = loadKernelConfig(env);
  checkConfig(config, registry);
  return config;
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 11345);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.storage, 'json');
    assert.equal(config.allowPrivateNetworks, false);
    assert.equal(config.authDisabled, false);
    assert.equal(config.browserEngine, 'playwright');
    assert.equal(config.lowMemory, false);
    assert.equal(config.logLevel, 'info');
    assert.ok(config.maxConcurrentRuns >= 1);
    assert.ok(config.dataDir.endsWith('data'));
  });

  const bad: Array<[Record<string, string>, string]> = [
    [{ STORAGE: 'sqlite' }, 'STORAGE'],
    [{ AUTH_PROVIDER: 'proxy-header' }, 'AUTH_PROVIDER'],
    [{ SCHEDULER: 'cron' }, 'SCHEDULER'],
    [{ STORAGE: 'postgres' }, 'DATABASE_URL'],
    [{ STORAGE: 'mongodb' }, 'MONGODB_URL'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ ALLOW_PRIVATE_NETWORKS: 'maybe' }, 'ALLOW_PRIVATE_NETWORKS'],
    [{ AUTH_DISABLED: 'yes please' }, 'AUTH_DISABLED'],
    [{ BROWSER_ENGINE: 'firefox' }, 'BROWSER_ENGINE'],
    [{ MAX_CONCURRENT_RUNS: '0' }, 'MAX_CONCURRENT_RUNS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PROVIDER_A_BASE_URL: 'not a url' }, 'PROVIDER_A_BASE_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ LOW_MEMORY: 'a little' }, 'LOW_MEMORY'],
    // Plugins' own variables, checked by start-up as the providers' are.
    [{ USE_NOVNC: 'sometimes' }, 'USE_NOVNC'],
    [{ NOVNC_PORT: '0' }, 'NOVNC_PORT'],
    [{ INSTANCE_ID: 'has space' }, 'INSTANCE_ID'],
    [{ RETENTION_DAYS: 'a week' }, 'RETENTION_DAYS'],
  ];
  for (const [env, variable] of bad) {
    it(`stops on a bad ${variable} with one line naming it`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.includes(variable), error.message);
        assert.ok(!error.message.includes('\n'));
        return true;
      });
    });
  }

  it('names the registered ids when a capability names none of them', () => {
    assert.throws(() => loadConfig({ STORAGE: 'sqlite' }), /Invalid configuration: STORAGE is "sqlite"; expected one of json, postgres, mongodb \(a module in TASKLOOM_MODULES may add others\)$/);
    assert.throws(() => loadConfig({ BROWSER_ENGINE: 'firefox' }), /expected one of playwright, puppeteer /);
  });

  it('accepts the documented values', () => {
    const config = loadConfig({
      STORAGE: 'postgres', DATABASE_URL: 'postgres://127.0.0.1/test', PORT: '0', ALLOW_PRIVATE_NETWORKS: 'true',
      BROWSER_ENGINE: 'puppeteer', MAX_CONCURRENT_RUNS: '4', TASKLOOM_MODULES: 'a, ./b',
    });
    assert.deepEqual(
      [config.storage, config.port, config.allowPrivateNetworks, config.browserEngine, config.maxConcurrentRuns, config.modules],
      ['postgres', 0, true, 'puppeteer', 4, ['a', './b']],
    );
  });
});

describe('configuration: SECRETS_KEY', () => {
  const key = Buffer.alloc(32, 7);

  it('takes 32 bytes as hex, base64 or base64url; SECRETS_KEY_PREVIOUS takes several', () => {
    for (const text of [key.toString('hex'), key.toString('base64'), key.toString('base64url'), ` ${key.toString('base64')}\n`]) {
      assert.deepEqual(keysOf(loadConfig({ SECRETS_KEY: text })).secretsKey, key, text);
    }
    const other = Buffer.alloc(32, 9);
    assert.deepEqual(keysOf(loadConfig({ SECRETS_KEY_PREVIOUS: `${key.toString('hex')},${other.toString('base64')}` })).previousSecretsKeys, [key, other]);
    assert.deepEqual([keysOf(loadConfig({})).secretsKey, keysOf(loadConfig({})).previousSecretsKeys], [undefined, []]);
  });

  const bad: Array<[string, string]> = [
    ['SECRETS_KEY', 'correct horse battery staple'],
    ['SECRETS_KEY', Buffer.alloc(16, 1).toString('hex')],
    ['SECRETS_KEY', Buffer.alloc(31, 1).toString('base64')],
    ['SECRETS_KEY', `${key.toString('hex')},${key.toString('hex')}`],
    ['SECRETS_KEY_PREVIOUS', `${key.toString('hex')},oops-not-a-key`],
  ];
  for (const [variable, value] of bad) {
    it(`refuses ${variable}=${value.slice(0, 12)}… with one line that names the format and not the value`, () => {
      assert.throws(() => loadConfig({ [variable]: value }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, new RegExp(`^Invalid configuration: ${variable} must be `));
        assert.match(error.message, /32 random bytes|one key/);
        assert.ok(!error.message.includes(value.split(',').pop()!), 'the value is a secret: never repeated');
        assert.ok(!error.message.includes('\n'));
        return true;
      });
    });
  }
});

describe('configuration: BROWSER_USER', () => {
  const browserUser = (env: Record<string, string>) => readModuleConfig(playwrightBrowser, loadConfig(env).variables, { required: true }).BROWSER_USER;
  it('takes a user name or uid[:gid], and is unset by default', () => {
    assert.equal(browserUser({}), undefined);
    for (const value of ['nobody', 'taskloom-browser', 'root', '65534', '1000:1000']) assert.equal(browserUser({ BROWSER_USER: value }), value);
  });

  for (const value of ['no body', '../etc', 'nobody;id', '1000:', ':1000']) {
    it(`refuses BROWSER_USER=${value} with one line naming it`, () => {
      assert.throws(() => loadConfig({ BROWSER_USER: value }), (error: unknown) =>
        error instanceof ConfigError && error.message.includes('BROWSER_USER') && !error.message.includes('\n'));
    });
  }
});

describe('configuration: RUN_MEMORY_LIMIT_MB', () => {
  const limit = (env: Record<string, string>) => readModuleConfig(browserPool, loadConfig(env).variables, { required: true }).RUN_MEMORY_LIMIT_MB;
  it('defaults to 1024 MB; takes 0 (no limit) or a number of MB from 128', () => {
    assert.equal(limit({}), 1024);
    for (const value of ['0', '128', '4096']) assert.equal(limit({ RUN_MEMORY_LIMIT_MB: value }), Number(value));
  });

  for (const value of ['64', '-1', '1.5', 'lots', '2000000']) {
    it(`refuses RUN_MEMORY_LIMIT_MB=${value} with one line naming it`, () => {
      assert.throws(() => loadConfig({ RUN_MEMORY_LIMIT_MB: value }), (error: unknown) =>
        error instanceof ConfigError && error.message.includes('RUN_MEMORY_LIMIT_MB') && !error.message.includes('\n'));
    });
  }
});

describe('configuration: ALLOWED_HOSTS', () => {
  it('defaults to none beyond those always accepted; takes host names, *.suffix patterns, IPv6 and * alone', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: ' Taskloom.Example.com , *.corp.example,[::1],box.lan. ' }).allowedHosts,
      ['taskloom.example.com', '*.corp.example', '::1', 'box.lan']);
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts, ['*']);
  });

  for (const value of ['https://taskloom.example.com', 'taskloom.example.com:8443', 'a b', '*, taskloom.example.com', 'x.*.example']) {
    it(`refuses ALLOWED_HOSTS=${value} with one line naming it`, () => {
      assert.throws(() => loadConfig({ ALLOWED_HOSTS: value }), (error: unknown) =>
        error instanceof ConfigError && error.message.includes('ALLOWED_HOSTS') && !error.message.includes('\n'));
    });
  }
});
