// Request ids: generated or taken from a sane X-Request-Id, echoed in the header, carried by every error body and
// by the log lines of the request (including those of a run it started), on the real service and a real process.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer } from '../support/pages-server.js';
import { spawnService } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie, setupAdmin, startService, type TestService } from '../support/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const chromium = chromiumOrSkip();

describe('request ids', () => {
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => { await svc?.close(); });

  it('gives every request a fresh UUID, echoed in X-Request-Id', async () => {
    const [a, b] = [await svc.request('GET', '/api/health'), await svc.request('GET', '/api/health')];
    const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')];
    for (const id of ids) assert.match(id ?? '', UUID);
    assert.notEqual(ids[0], ids[1]);
  });

  it('keeps a sane incoming X-Request-Id and replaces anything else', async () => {
    for (const sane of ['trace-abc.123', '0af7651916cd43dd8448eb211c80319c', 'a:b=c+d/e_f']) {
      const res = await svc.request('GET', '/api/health', { headers: { 'x-request-id': sane } });
      assert.equal(res.headers.get('x-request-id'), sane);
    }
    for (const insane of ['has spaces in it', 'x'.repeat(129), '<script>', 'quote"d', '']) {
      const res = await svc.request('GET', '/api/health', { headers: { 'x-request-id': insane } });
      assert.match(res.headers.get('x-request-id') ?? '', UUID, JSON.stringify(insane));
    }
  });

  it('puts the id in every error body, next to error and details', async () => {
    const cases: Array<[string, string, Parameters<TestService['request']>[2], number, string]> = [
      ['GET', '/api/no/such/route', {}, 404, 'NOT_FOUND'],
      ['GET', '/api/tasks', {}, 401, 'UNAUTHORIZED'],
      ['GET', '/api/tasks/nope', { apiKey }, 404, 'TASK_NOT_FOUND'],
      ['POST', '/api/tasks', { apiKey, body: { name: 7 } }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/tasks', { apiKey, raw: '{"name":', headers: { 'content-type': 'application/json' } }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/settings/retention', { apiKey, body: { days: -1 } }, 400, 'VALIDATION_ERROR'],
      // A path that cannot be decoded never reaches a route: Fastify's framework error handler answers.
      ['GET', '/api/tasks/%E0%A4%A', { apiKey }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [method, url, options, status, code] of cases) {
      const res = await svc.request(method, url, options);
      const where = `${method} ${url}: ${res.text}`;
      assert.equal(res.status, status, where);
      assert.deepEqual(Object.keys(res.body).sort(), ['details', 'error', 'requestId'], where);
      assert.equal(res.body.error, code, where);
      assert.match(res.body.requestId, UUID, where);
      assert.equal(res.headers.get('x-request-id'), res.body.requestId, where);
    }
    const traced = await svc.request('GET', '/api/tasks/nope', { apiKey, headers: { 'x-request-id': 'support-ticket-42' } });
    assert.deepEqual(traced.body, { error: 'TASK_NOT_FOUND', details: 'Task nope not found', requestId: 'support-ticket-42' });
  });

  it('documents requestId in the error schema of the OpenAPI document', async () => {
    const doc = await svc.request('GET', '/api/openapi.json');
    const notFound = doc.body.paths['/api/tasks/{id}'].get.responses['404'].content['application/json'].schema;
    assert.equal(notFound.allOf[0].$ref, '#/components/schemas/Error');
    assert.deepEqual(Object.keys(doc.body.components.schemas.Error.properties).sort(), ['details', 'error', 'requestId']);
    assert.match(doc.body.info.description, /requestId/);
  });
});

/** The JSON log lines of a process that mention `text`. */
const linesWith = (output: string, text: string): Array<Record<string, unknown>> =>
  output.split('\n').filter((line) => line.includes(text)).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request ids in log lines (a real process)', () => {
  it('every line written for a request carries its id once, also from plugin loggers and the run it started', async (t) => {
    const dataDir = await makeTempDir();
    const pages = await startPagesServer();
    const svc = await spawnService({ DATA_DIR: dataDir, LOG_LEVEL: 'info', ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const setup = await request(svc.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
      const cookie = sessionCookie(setup.headers);
      const apiKey = (await request(svc.baseUrl, 'POST', '/api/settings/api-key', { cookie })).body.apiKey as string;
      // The retention plugin logs through its own logger, not the request's: the id still reaches the line.
      const saved = await request(svc.baseUrl, 'POST', '/api/settings/retention', {
        apiKey, body: { days: 0 }, headers: { 'x-request-id': 'trace-retention-1' },
      });
      assert.equal(saved.status, 200, saved.text);
      let runId: string | undefined;
      if (chromium.skip) t.diagnostic(`run log lines not checked: ${chromium.skip}`);
      else {
        const task = await request(svc.baseUrl, 'POST', '/api/tasks', { apiKey, body: { name: 'traced', mode: 'scrape', url: `${pages.origin}/`, actions: [] } });
        assert.equal(task.status, 200, task.text);
        const run = await request(svc.baseUrl, 'POST', `/api/tasks/${task.body.id}/api`, { apiKey, headers: { 'x-request-id': 'trace-run-1' } });
        assert.equal(run.body.status, 'success', run.text);
        runId = run.body.executionId;
      }
      await svc.stop('SIGTERM');
      const output = svc.output();

      const retention = linesWith(output, 'trace-retention-1');
      assert.ok(retention.some((line) => line.msg === 'retention changed' && line.plugin === 'retention'), 'the plugin line carries the id');
      assert.ok(retention.some((line) => line.msg === 'request completed'), 'Fastify\'s own line carries the id');
      if (runId) {
        const runLines = linesWith(output, runId);
        for (const msg of ['run queued', 'run finished']) {
          const line = runLines.find((l) => l.msg === msg);
          assert.equal(line?.reqId, 'trace-run-1', `${msg}: ${JSON.stringify(line)}`);
        }
      }
      // Never twice in one line (the request logger binds it, the mixin adds it only to other loggers).
      for (const line of output.split('\n')) assert.ok((line.match(/"reqId"/g) ?? []).length <= 1, line);
      // Lines outside any request carry none.
      const listening = linesWith(output, 'Server listening');
      assert.ok(listening.length > 0 && listening.every((line) => line.reqId === undefined));
    } finally {
      await svc.stop('SIGKILL');
      await pages.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
