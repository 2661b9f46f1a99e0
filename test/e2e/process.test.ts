import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';
import { runToExit, spawnService } from '../support/process.js';

describe('the service process', () => {
  it('stops on a bad configuration value with one line naming the variable', async () => {
    const { code, stderr } = await runToExit({ STORAGE: 'oracle' });
    assert.equal(code, 1);
    assert.equal(stderr.trim().split('\n').length, 1);
    assert.match(stderr, /STORAGE/);
  });

  it('starts, serves, logs no secrets, and exits 0 on SIGTERM', async () => {
    const dataDir = await makeTempDir();
    const svc = await spawnService({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    try {
      const health = await request(svc.baseUrl, 'GET', '/api/health');
      assert.equal(health.body.status, 'ok');
      const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
      const cookie = sessionCookie(setup.headers);
      const key = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
      await request(svc.baseUrl, 'GET', '/api/auth/me', { apiKey: key, headers: { authorization: `Bearer ${key}` } });
      await request(svc.baseUrl, 'POST', '/api/auth/login', { body: { email: ADMIN.email, password: 'wrong-password-123' } });
      assert.equal(await svc.stop('SIGTERM'), 0);
      const log = svc.output();
      assert.ok(log.includes('"level":10') || log.includes('"level":20') || log.includes('"level":30'), 'logs were written');
      for (const secret of [ADMIN.password, 'wrong-password-123', key, cookie.split('=')[1]!]) {
        assert.ok(!log.includes(secret), 'a secret reached the log');
      }
    } finally {
      await svc.stop('SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('loads a third-party module named in TASKLOOM_MODULES without editing the kernel', async () => {
    const dataDir = await makeTempDir();
    const svc = await spawnService({ DATA_DIR: dataDir, TASKLOOM_MODULES: './test/fixtures/third-party-module.ts' });
    try {
      const res = await request(svc.baseUrl, 'GET', '/api/hello');
      assert.deepEqual([res.status, res.body], [200, { hello: 'from a third-party plugin', storage: 'json' }]);
    } finally {
      await svc.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
