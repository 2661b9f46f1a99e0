// The run queue (MAX_CONCURRENT_RUNS=1), cancel (queued and running), the run timeout of a page script that never
// ends (while the service keeps answering), and the live event stream of an execution.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

interface SseEvent { event: string; data: any }

/** Reads a server-sent event stream to its end. */
async function readEvents(url: string, apiKey: string): Promise<{ status: number; type: string | null; events: SseEvent[] }> {
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  const text = await response.text();
  const events = text.split('\n\n').filter((block) => block.includes('data: ')).map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
    data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
  }));
  return { status: response.status, type: response.headers.get('content-type'), events };
}

describe('runs: queue, cancel, timeout and events', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'control test', mode: 'agent', url: `${pages.origin}/`, actions: [], ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  const waitTask = (ms: number) => createTask({ actions: [{ type: 'wait', value: String(ms) }] });
  /** Starts a run without waiting for its answer. */
  const startRun = (taskId: string) => api('POST', `/api/tasks/${taskId}/api`);
  /** The one execution of `taskId`, once it has `status`. */
  async function executionOf(taskId: string, status: string, timeoutMs = 15_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = (await api('GET', `/api/executions?taskId=${taskId}`)).body;
      if (list[0]?.status === status) return list[0];
      if (Date.now() > deadline) throw new Error(`execution of ${taskId} never became ${status}: ${JSON.stringify(list[0]?.status)}`);
      await sleep(50);
    }
  }

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '1' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('queues a run beyond MAX_CONCURRENT_RUNS (queued) and starts it once the first ends', async () => {
    const [first, second] = [await waitTask(1500), await waitTask(0)];
    const a = startRun(first);
    await executionOf(first, 'running');
    const b = startRun(second);
    const queued = await executionOf(second, 'queued');
    assert.equal(queued.finishedAt, undefined);
    const [ra, rb] = await Promise.all([a, b]);
    assert.deepEqual([ra.body.status, rb.body.status], ['success', 'success']);
    const recordA = (await api('GET', `/api/executions/${ra.body.executionId}`)).body;
    const recordB = (await api('GET', `/api/executions/${rb.body.executionId}`)).body;
    // The slot frees when the browser work ends, a moment before the first record is final.
    const gap = Date.parse(recordB.startedAt) - Date.parse(recordA.startedAt);
    assert.ok(gap >= 1500, `the second started once the first had done its 1.5 s (after ${gap} ms)`);
  });

  it('cancels a running run: the caller hears cancelled, the record ends cancelled, a second cancel is 409', async () => {
    const id = await waitTask(30_000);
    const answer = startRun(id);
    const running = await executionOf(id, 'running');
    const started = Date.now();
    const cancel = await api('POST', `/api/executions/${running.executionId}/cancel`);
    assert.deepEqual([cancel.status, cancel.body], [200, { success: true, status: 'cancelled' }]);
    assert.ok(Date.now() - started < 8000, 'cancel answers once the run stopped, promptly');
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'cancelled');
    assert.match(res.body.result.error.message, /Cancelled/);
    assert.equal((await api('GET', `/api/executions/${running.executionId}`)).body.status, 'cancelled');
    const again = await api('POST', `/api/executions/${running.executionId}/cancel`);
    assert.deepEqual([again.status, again.body.error], [409, 'EXECUTION_FINISHED']);
    const unknown = await api('POST', '/api/executions/exec_unknown/cancel');
    assert.deepEqual([unknown.status, unknown.body.error], [404, 'EXECUTION_NOT_FOUND']);
    assert.equal(svc.service.services.browser.openContexts(), 0);
  });

  it('cancels a queued run before it starts (durationMs 0)', async () => {
    const [long, waiting] = [await waitTask(30_000), await waitTask(0)];
    const a = startRun(long);
    const runningA = await executionOf(long, 'running');
    const b = startRun(waiting);
    const queued = await executionOf(waiting, 'queued');
    const cancel = await api('POST', `/api/executions/${queued.executionId}/cancel`);
    assert.deepEqual(cancel.body, { success: true, status: 'cancelled' });
    const rb = await b;
    assert.deepEqual([rb.body.status, rb.body.durationMs], ['cancelled', 0]);
    assert.equal((await api('GET', `/api/executions/${runningA.executionId}`)).body.status, 'running', 'the running one goes on');
    await api('POST', `/api/executions/${runningA.executionId}/cancel`);
    assert.equal((await a).body.status, 'cancelled');
  });

  it('ends a page script that never returns as timeout, and the service answers other requests meanwhile', async () => {
    const id = await createTask({ timeoutMs: 3000, actions: [{ type: 'javascript', value: 'while (true) {}' }] });
    const started = Date.now();
    const answer = startRun(id);
    await executionOf(id, 'running');
    let slowest = 0;
    let settled = false;
    void answer.finally(() => { settled = true; });
    while (!settled) {
      const t = Date.now();
      const health = await svc.request('GET', '/api/health');
      assert.equal(health.status, 200);
      slowest = Math.max(slowest, Date.now() - t);
      await sleep(100);
    }
    const res = await answer;
    assert.equal(res.body.status, 'timeout', res.text);
    assert.match(res.body.result.error.message, /3000 ms/);
    assert.ok(Date.now() - started < 15_000);
    assert.ok(slowest < 1000, `health answered within 1 s all along (slowest ${slowest} ms)`);
    const next = await startRun(await waitTask(0));
    assert.equal(next.body.status, 'success', 'the next run gets a working browser');
  });

  it('streams log lines, status changes and the result as server-sent events, then ends', async () => {
    const id = await createTask({ actions: [{ type: 'wait', value: '300' }, { type: 'click', selector: '#increment' }, { type: 'wait', value: '300' }] });
    const answer = startRun(id);
    const queuedOrRunning = (await api('GET', `/api/executions?taskId=${id}`)).body[0] ?? (await executionOf(id, 'running'));
    const stream = await readEvents(`${svc.baseUrl}/api/executions/${queuedOrRunning.executionId}/events`, apiKey);
    assert.equal(stream.status, 200);
    assert.match(stream.type ?? '', /^text\/event-stream/);
    const names = stream.events.map((e) => e.event);
    assert.equal(names.at(-1), 'result', 'the result comes last');
    assert.ok(names.filter((n) => n === 'result').length === 1);
    const logs = stream.events.filter((e) => e.event === 'log').map((e) => e.data);
    assert.deepEqual([...new Set(logs.filter((l) => l.actionIndex !== undefined).map((l) => l.actionIndex))], [0, 1, 2]);
    assert.ok(stream.events.some((e) => e.event === 'status' && e.data.status === 'success'));
    const result = stream.events.at(-1)!.data;
    const res = await answer;
    assert.deepEqual(result, res.body);

    // A finished run: its stored lines, then the result at once.
    const replay = await readEvents(`${svc.baseUrl}/api/executions/${res.body.executionId}/events`, apiKey);
    const stored = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    assert.deepEqual(replay.events.filter((e) => e.event === 'log').map((e) => e.data), stored.logs);
    assert.deepEqual(replay.events.at(-1), { event: 'result', data: res.body });

    const unknown = await api('GET', '/api/executions/exec_unknown/events');
    assert.deepEqual([unknown.status, unknown.body.error], [404, 'EXECUTION_NOT_FOUND']);
  });

  it('offers app.taskRuns to the scheduler: runs by task id through the same queue, with isRunning', async () => {
    const taskRuns = svc.service.app.taskRuns!;
    const id = await waitTask(800);
    const pending = taskRuns.run(id, { trigger: 'schedule', variables: { any: 1 } });
    await executionOf(id, 'running');
    assert.equal(taskRuns.isRunning(id), true);
    const outcome = await pending;
    assert.equal(outcome.status, 'success');
    assert.equal(taskRuns.isRunning(id), false);
    const record = (await api('GET', `/api/executions/${outcome.executionId}`)).body;
    assert.deepEqual([record.trigger, record.durationMs], ['schedule', outcome.durationMs]);
    await assert.rejects(taskRuns.run('task_gone', { trigger: 'schedule' }), /Task task_gone not found/);
  });
});
