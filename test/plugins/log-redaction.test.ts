// Query strings were logged verbatim, so `?apiKey=...` or a relay `?token=...` landed in the log. The request
// line of the real service (its own process, pino on stdout) now masks the values of secret-named parameters
// and keeps the rest, so the log still says what was asked for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isSecretParameter, redactQuery } from '../../kernel/http/query-redaction.js';
import { makeTempDir } from '../support/service.js';
import { spawnService, type ServiceProcess } from '../support/process.js';

describe('secret query parameters in logs', () => {
  it('knows credential names in any case and spelling, and leaves ordinary ones alone', () => {
    const secret = ['key', 'apiKey', 'api_key', 'API-KEY', 'x-api-key', 'token', 'access_token', 'refresh_token', 'password',
      'passwd', 'pwd', 'secret', 'client_secret', 'signature', 'sig', 'X-Amz-Signature', 'X-Amz-Credential', 'auth', 'authorization',
      'sessionId', 'code', 'jwt', 'otp'];
    const ordinary = ['limit', 'offset', 'status', 'taskId', 'q', 'format', 'from', 'to', 'keyword', 'author', 'design', 'countryCode'];
    for (const name of secret) assert.ok(isSecretParameter(name), name);
    for (const name of ordinary) assert.ok(!isSecretParameter(name), name);
  });

  it('masks only the values, keeps the order, the path, bare names and the fragment', () => {
    assert.equal(redactQuery('/api/x?limit=5&apiKey=abc&token=t%20x&key&q=a#frag'), '/api/x?limit=5&apiKey=[redacted]&token=[redacted]&key&q=a#frag');
    assert.equal(redactQuery('/api/x?a%70i%4Bey=zzz&x=%ZZ'), '/api/x?a%70i%4Bey=[redacted]&x=%ZZ', 'an escaped name is judged decoded');
    assert.equal(redactQuery('https://h.example/p?sig=1&sig=2'), 'https://h.example/p?sig=[redacted]&sig=[redacted]');
    assert.equal(redactQuery('/api/health'), '/api/health');
  });

  describe('in the real service\'s log', () => {
    let service: ServiceProcess;
    before(async () => {
      service = await spawnService({ DATA_DIR: await makeTempDir() });
    });
    after(async () => { await service?.stop(); });

    it('the request line shows the path and ordinary parameters, never the secret values', async () => {
      const planted = ['PLANTED-apikey-7f3a', 'PLANTED-token-91c2', 'PLANTED-key-55d0', 'PLANTED-pass-0b7e'];
      const paths = [
        `/api/health?apiKey=${planted[0]}&verbose=1`,
        `/api/browser/sessions/bs_x/devtools?token=${planted[1]}`,
        `/api/executions/list?limit=7&key=${planted[2]}`,
        `/api/tasks?Password=${planted[3]}`,
      ];
      for (const path of paths) await fetch(`${service.baseUrl}${path}`).then((r) => r.arrayBuffer());
      // pino writes asynchronously: wait for the last request's line.
      const deadline = Date.now() + 10_000;
      while (!service.output().includes('/api/tasks?Password=') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const log = service.output();
      for (const value of planted) assert.ok(!log.includes(value), `${value} is in the log`);
      const urls = log.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { req?: { url?: string } })
        .map((line) => line.req?.url).filter((url): url is string => url !== undefined);
      assert.ok(urls.includes('/api/health?apiKey=[redacted]&verbose=1'), urls.join('\n'));
      assert.ok(urls.includes('/api/executions/list?limit=7&key=[redacted]'), urls.join('\n'));
      assert.ok(urls.includes('/api/tasks?Password=[redacted]'), urls.join('\n'));
    });
  });
});
