// POST /api/tasks/{id}/api on the real service with real Chromium against the local fixture pages: the answer,
// the Content-Type rule, cookies kept or not, captures (screenshots, recordings), failing actions, refusals.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const noFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0 ? false : 'ffmpeg is not installed (apt-get install ffmpeg)';
const ANSWER_KEYS = ['durationMs', 'executionId', 'result', 'status', 'taskId'];

describe('POST /api/tasks/{id}/api', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let cookie: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'run test', mode: 'agent', actions: [], ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  /** The run endpoint with a raw body and exactly the headers given (fetch adds no content-type to a typeless Blob). */
  const runRaw = async (id: string, body: Blob | string | undefined, headers: Record<string, string> = {}) => {
    const response = await fetch(`${svc.baseUrl}/api/tasks/${id}/api`, { method: 'POST', headers: { 'x-api-key': apiKey, ...headers }, body });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) };
  };

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey, cookie } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('runs the actions and answers { executionId, taskId, status, durationMs, result } with data, title and finalUrl', async () => {
    const id = await createTask({
      url: `${pages.origin}/`,
      actions: [
        { type: 'click', selector: '#increment' },
        { type: 'type', selector: '#name', value: 'Ada' },
        { type: 'click', selector: '#greet' },
        { type: 'click', selector: '#to-second' },
        { type: 'wait_selector', selector: 'body' },
      ],
      extractionScript: 'return { heading: document.querySelector("h1")?.textContent ?? null, path: location.pathname }',
    });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ANSWER_KEYS);
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.taskId, id);
    assert.match(res.body.executionId, /^exec_[A-Za-z0-9_-]+$/);
    assert.ok(res.body.durationMs > 0);
    assert.equal(res.body.result.finalUrl, `${pages.origin}/second.html`);
    assert.equal(res.body.result.data.path, '/second.html');
    assert.equal(typeof res.body.result.title, 'string');
    assert.deepEqual(res.body.result.captures, []);

    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    assert.equal(record.status, 'success');
    assert.equal(record.trigger, 'api');
    assert.equal(record.durationMs, res.body.durationMs);
    assert.deepEqual(record.result, res.body.result);
    assert.ok(record.finishedAt >= record.startedAt);
    const indexes = record.logs.filter((l: { actionIndex?: number }) => l.actionIndex !== undefined).map((l: { actionIndex: number }) => l.actionIndex);
    assert.deepEqual([...new Set(indexes)], [0, 1, 2, 3, 4], 'a log line per action');
  });

  it('records a dashboard session caller as trigger dashboard', async () => {
    const id = await createTask({ url: `${pages.origin}/second.html` });
    const res = await svc.request('POST', `/api/tasks/${id}/api`, { cookie });
    assert.equal(res.body.status, 'success', res.text);
    assert.equal((await api('GET', `/api/executions/${res.body.executionId}`)).body.trigger, 'dashboard');
  });

  it('reads body fields only with Content-Type: application/json; otherwise the task defaults apply', async () => {
    const id = await createTask({
      url: `${pages.origin}/`,
      variables: { who: 'task' },
      actions: [{ type: 'type', selector: '#name', value: '{$who}' }, { type: 'click', selector: '#greet' }],
      extractionScript: 'return document.querySelector("#greeting").textContent',
    });
    const json = JSON.stringify({ variables: { who: 'run' } });
    const greeting = (res: { status: number; body: any }) => {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, 'success', JSON.stringify(res.body));
      return res.body.result.data;
    };
    assert.equal(greeting(await runRaw(id, new Blob([json]))), 'Hello, task', 'no Content-Type header at all');
    assert.equal(greeting(await runRaw(id, json, { 'content-type': 'text/plain' })), 'Hello, task', 'text/plain');
    assert.equal(greeting(await runRaw(id, 'variables=run', { 'content-type': 'application/x-www-form-urlencoded' })), 'Hello, task');
    assert.equal(greeting(await runRaw(id, undefined)), 'Hello, task', 'no body');
    assert.equal(greeting(await runRaw(id, '', { 'content-type': 'application/json' })), 'Hello, task', 'empty JSON body');
    assert.equal(greeting(await runRaw(id, json, { 'content-type': 'application/json' })), 'Hello, run');
    assert.equal(greeting(await runRaw(id, json, { 'content-type': 'application/json; charset=utf-8' })), 'Hello, run');

    const broken = await runRaw(id, '{"variables":', { 'content-type': 'application/json' });
    assert.deepEqual([broken.status, broken.body.error], [400, 'VALIDATION_ERROR']);
    const wrongType = await runRaw(id, JSON.stringify({ variables: 'x' }), { 'content-type': 'application/json' });
    assert.deepEqual([wrongType.status, wrongType.body.error], [400, 'VALIDATION_ERROR']);
    assert.match(wrongType.body.details, /body\.variables/);
    const unknown = await runRaw(id, JSON.stringify({ variablez: {} }), { 'content-type': 'application/json' });
    assert.match(unknown.body.details, /body\.variablez is not an accepted field/);
  });

  it('keeps cookies between runs unless statelessExecution is true', async () => {
    const setter = await createTask({ url: `${pages.origin}/set-cookie?name=kept&value=yes&maxAge=600` });
    const reader = await createTask({ url: `${pages.origin}/echo-cookies`, extractionScript: 'return document.body.innerText' });
    const run = async (id: string, statelessExecution?: boolean) => {
      const res = await api('POST', `/api/tasks/${id}/api`, statelessExecution === undefined ? {} : { body: { statelessExecution } });
      assert.equal(res.body.status, 'success', res.text);
      return res.body.result.data as string | null;
    };
    await run(setter, true);
    assert.doesNotMatch((await run(reader)) ?? '', /kept=yes/, 'a stateless run keeps nothing');
    await run(setter);
    assert.match((await run(reader)) ?? '', /kept=yes/, 'a normal run keeps its cookies for the next');
    assert.doesNotMatch((await run(reader, true)) ?? '', /kept=yes/, 'a stateless run starts without them');
  });

  it('saves screenshots as captures of the run, listed by runId and served to the caller', async () => {
    const id = await createTask({ url: `${pages.origin}/`, actions: [{ type: 'screenshot' }, { type: 'screenshot', value: 'full' }] });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'success', res.text);
    const { executionId } = res.body;
    assert.deepEqual(res.body.result.captures, [`${executionId}_1.png`, `${executionId}_2.png`]);
    const listed = await api('GET', `/api/data/captures?runId=${executionId}`);
    assert.deepEqual(listed.body.map((c: { name: string }) => c.name).sort(), res.body.result.captures);
    assert.ok(listed.body.every((c: { type: string; size: number }) => c.type === 'screenshot' && c.size > 0));
    const file = await fetch(`${svc.baseUrl}${listed.body[0].url}`, { headers: { 'x-api-key': apiKey } });
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await file.arrayBuffer()).subarray(1, 4)], [0x50, 0x4e, 0x47]);
  });

  it('records a webm video of a task with record: true', { skip: noFfmpeg }, async () => {
    const id = await createTask({ url: `${pages.origin}/animated.html`, record: true, actions: [{ type: 'wait', value: '600' }] });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'success', res.text);
    const name = `${res.body.executionId}_1.webm`;
    assert.deepEqual(res.body.result.captures, [name]);
    const listed = await api('GET', `/api/data/captures?runId=${res.body.executionId}`);
    assert.deepEqual(listed.body.map((c: { name: string; type: string }) => [c.name, c.type]), [[name, 'recording']]);
    assert.ok(listed.body[0].size > 0);
  });

  it('answers 200 with status error and the failing action index when an action fails', async () => {
    const id = await createTask({
      url: `${pages.origin}/`,
      actions: [{ type: 'click', selector: '#increment' }, { type: 'click', selector: '#does-not-exist', timeoutMs: 300 }, { type: 'screenshot' }],
    });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.result.error.actionIndex, 1);
    assert.match(res.body.result.error.message, /^Action 2 \(click\): .*does-not-exist/, 'people count actions from 1; actionIndex from 0');
    assert.equal(res.body.result.finalUrl, `${pages.origin}/`);
    assert.equal(res.body.result.title, 'Fixture home');
    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    assert.equal(record.status, 'error');
    assert.ok(record.logs.some((l: { level: string; actionIndex?: number }) => l.level === 'error' && l.actionIndex === 1));
    for (const line of record.logs as { message: string; actionIndex?: number }[]) {
      if (line.actionIndex === undefined) continue;
      assert.match(line.message, new RegExp(`^action ${line.actionIndex + 1} \\(click\\)`, 'i'), `the line names its action: ${line.message}`);
    }
  });

  it('fills placeholders in javascript, if and the extraction script as raw text', async () => {
    const id = await createTask({
      url: `${pages.origin}/`,
      variables: { who: 'Ada', n: 1 },
      actions: [
        { type: 'if', value: "'{$who}' === 'Grace'" }, { type: 'javascript', value: "document.title = '{$who} ' + ({$n} + 1)" }, { type: 'end' },
      ],
      extractionScript: "return [document.title, '{$who}', args.vars.who]",
    });
    const res = await api('POST', `/api/tasks/${id}/api`, { body: { variables: { who: 'Grace' } } });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.result.data, ['Grace 2', 'Grace', 'Grace']);
  });

  it('answers a page that cannot be opened as status error without an action index', async () => {
    const closed = await startPagesServer();
    const origin = closed.origin;
    await closed.close();
    const id = await createTask({ url: `${origin}/` });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'error', res.text);
    assert.match(res.body.result.error.message, /Opening the task URL failed/);
    assert.equal(res.body.result.error.actionIndex, undefined);
  });

  it('runs a headful task in the managed browser (headless when there is no display)', async () => {
    const id = await createTask({ url: `${pages.origin}/second.html`, mode: 'headful', extractionScript: 'return location.pathname' });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.result.data, '/second.html');
    assert.equal(svc.service.services.browser.openContexts(), 0);
  });

  it('refuses an unknown task (404), a session that is not open (404) and anonymous callers (401)', async () => {
    const before = (await api('GET', '/api/executions')).body.length;
    const missing = await api('POST', '/api/tasks/task_nope/api');
    assert.deepEqual([missing.status, missing.body.error], [404, 'TASK_NOT_FOUND']);
    const id = await createTask({ url: `${pages.origin}/` });
    const session = await api('POST', `/api/tasks/${id}/api`, { body: { sessionId: 'sess_1' } });
    assert.deepEqual([session.status, session.body.error], [404, 'NOT_FOUND']);
    assert.match(session.body.details, /session sess_1 is not open/i);
    for (const [method, url] of [['POST', `/api/tasks/${id}/api`], ['POST', '/api/executions/x/cancel'], ['GET', '/api/executions/x/events']]) {
      const anonymous = await svc.request(method!, url!);
      assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'UNAUTHORIZED'], url);
    }
    assert.equal((await api('GET', '/api/executions')).body.length, before, 'no execution was recorded for a refusal');
  });
});
