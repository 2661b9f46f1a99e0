// QUEUE and ROLE: the run queue's provider and what this instance does; each bad value stops start-up with one line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtInRegistry } from '../../app/service.js';
import { ConfigError, loadConfig as loadKernelConfig } from '../../kernel/config.js';
import { checkConfig } from '../../kernel/module-config.js';

const registry = await builtInRegistry();
const loadConfig = (env: Record<string, string>) => {
  const config = loadKernelConfig(env);
  checkConfig(config, registry);
  return config;
};

describe('queue configuration', () => {
  it('defaults to the in-process queue and both roles', () => {
    const config = loadConfig({});
    assert.equal(config.queue, 'memory');
    assert.equal(config.role, 'all');
  });

  it('accepts pg-boss with DATABASE_URL and bullmq with REDIS_URL', () => {
    assert.equal(loadConfig({ QUEUE: 'pg-boss', DATABASE_URL: 'postgres://127.0.0.1/test' }).queue, 'pg-boss');
    const config = loadConfig({ QUEUE: 'bullmq', REDIS_URL: 'redis://127.0.0.1:6379', ROLE: 'worker' });
    assert.deepEqual([config.queue, config.role], ['bullmq', 'worker']);
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ QUEUE: 'sqs' }, /^Invalid configuration: QUEUE is "sqs"; expected one of memory, pg-boss, bullmq /],
    [{ QUEUE: 'pg-boss' }, /^Invalid configuration: DATABASE_URL is required when QUEUE=pg-boss$/],
    [{ QUEUE: 'bullmq' }, /^Invalid configuration: REDIS_URL is required when QUEUE=bullmq$/],
    [{ QUEUE: 'bullmq', REDIS_URL: 'http://user:secret@x' }, /^Invalid configuration: REDIS_URL must use redis: or rediss:$/],
    [{ QUEUE: 'bullmq', REDIS_URL: 'redis://x', QUEUE_PREFIX: 'a b' }, /^Invalid configuration: QUEUE_PREFIX is "a b"; expected up to 64/],
    [{ ROLE: 'browser' }, /^Invalid configuration: ROLE is "browser"; expected one of api, worker, all$/],
  ];
  for (const [env, message] of bad) {
    it(`stops on ${JSON.stringify(env)} with one line`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /secret/);
        return true;
      });
    });
  }
});
