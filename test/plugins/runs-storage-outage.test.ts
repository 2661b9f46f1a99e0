// A run whose end falls in a storage outage (PostgreSQL cut off by a TCP proxy): its event stream ends with the true
// status, a second stream and cancel answer from what the service kept in memory, and once the database is back the
// stored record is the true final one, result and logs included (no restart).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import { Registry } from '../../kernel/registry.js';
import { plugins, providers } from '../../app/built-ins.js';
import { FINAL_RECORD_LIMITS } from '../../plugins/runs/final-records.js';
import { createRunsPlugin } from '../../plugins/runs/index.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer } from '../support/pages-server.js';
import { createProxiedTestDatabase, postgresUnavailable } from '../support/postgres-database.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const postgres = await postgresUnavailable();

interface SseEvent { event: string; data: any }

/** Opens an event stream; `events` resolves once the server ends it. */
async function openEvents(url: string, apiKey: string): Promise<{ status: number; events: Promise<SseEvent[]>; seen: SseEvent[] }> {
  const response = await fetch(url, { headers: { 'x-api-key': apiKey }, signal: AbortSignal.timeout(120_000) });
  const seen: SseEvent[] = [];
  const events = (async () => {
    let buffer = '';
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined) seen.push({ event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: JSON.parse(data) });
      }
    }
    return seen;
  })();
  return { status: response.status, events, seen };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

const skip = chromium.skip || postgres;

/** The built-in modules, the runs plugin retrying kept records every 5 s (a window to ask while one is kept). */
function slowRetries(): Registry {
  const registry = new Registry();
  const finalRecords = { ...FINAL_RECORD_LIMITS, firstDelayMs: 5000, maxDelayMs: 5000 };
  registry.addModule({ providers, plugins: plugins?.map((plugin) => (plugin.name === 'runs' ? createRunsPlugin({ finalRecords }) : plugin)) });
  return registry;
}

describe('a run ending during a storage outage', { skip }, () => {
  it('streams its true end, cancel says it finished, and the stored record is the true one once the database is back', { timeout: 180_000 }, async () => {
    const pages = await startPagesServer();
    const db = await createProxiedTestDatabase('taskloom_run_outage');
    const { proxy } = db;
    const direct = new pg.Client({ connectionString: db.url() });
    let svc: TestService | undefined;
    try {
      svc = await startService({ STORAGE: 'postgres', DATABASE_URL: db.proxiedUrl, ALLOW_PRIVATE_NETWORKS: 'true' }, undefined, { registry: slowRetries() });
      const { apiKey } = await setupAdmin(svc);
      const api = (method: string, url: string, body?: unknown) => svc!.request(method, url, { apiKey, body });
      const task = await api('POST', '/api/tasks', {
        name: 'ends in an outage', mode: 'agent', url: `${pages.origin}/`,
        actions: [{ type: 'wait', value: '3000' }], extractionScript: 'return { title: document.title }',
      });
      assert.equal(task.status, 200, task.text);
      const started = await svc.request('POST', `/api/tasks/${task.body.id}/api`, {
        apiKey, headers: { prefer: 'respond-async' }, body: { statelessExecution: true },
      });
      assert.equal(started.status, 202, started.text);
      const { executionId } = started.body;
      const stream = await openEvents(`${svc.baseUrl}/api/executions/${executionId}/events`, apiKey);
      assert.equal(stream.status, 200);
      await until('the run is running', async () => (stream.seen.some((e) => e.event === 'status' && e.data.status === 'running') ? true : undefined), 60_000);

      await proxy.down(); // the run ends (about 3 s later) while the database is unreachable
      const events = await stream.events;
      const result = events.find((e) => e.event === 'result');
      assert.equal(result?.data.status, 'success', `the stream ends with the true status: ${JSON.stringify(events.slice(-3))}`);
      assert.deepEqual(result.data.result.data, { title: (await (await fetch(`${pages.origin}/`)).text()).match(/<title>(.*)<\/title>/)?.[1] });
      assert.deepEqual(events.at(-1)?.event, 'result', 'the result is the last event: the stream ended');

      await direct.connect();
      const storedStatus = async () => (await direct.query<{ doc: any }>('SELECT doc FROM executions WHERE execution_id = $1', [executionId])).rows[0]?.doc.status;
      assert.equal(await storedStatus(), 'running', 'the database did miss the end (the test cut it in time)');

      // The database answers again (authentication needs it), before the kept record is written (the retry waits
      // 5 s here): a second stream and cancel answer with the true end, not "running in another instance".
      await proxy.up();
      const again = await openEvents(`${svc.baseUrl}/api/executions/${executionId}/events`, apiKey);
      assert.equal(again.status, 200);
      const replay = await again.events;
      assert.deepEqual([replay.find((e) => e.event === 'status')?.data.status, replay.at(-1)?.event, replay.at(-1)?.data.status], ['success', 'result', 'success']);
      assert.ok(replay.some((e) => e.event === 'log' && /finished: success/.test(e.data.message)), 'the run\'s lines come along');
      const cancel = await api('POST', `/api/executions/${executionId}/cancel`);
      assert.equal(cancel.status, 409, cancel.text);
      assert.equal(cancel.body.error, 'EXECUTION_FINISHED');
      assert.match(cancel.body.details, /already finished \(success\)/);
      const stillKept = (await storedStatus()) === 'running';
      console.log(`# stream and cancel answered ${stillKept ? 'from the record kept in memory' : 'after the kept record was written'}`);

      const stored = await until('the final record is written', async () => {
        const { rows } = await direct.query<{ doc: any }>('SELECT doc FROM executions WHERE execution_id = $1', [executionId]);
        return rows[0]?.doc.status === 'running' ? undefined : rows[0]!.doc;
      }, 90_000);
      assert.equal(stored.status, 'success');
      assert.deepEqual(stored.result.data, result.data.result.data, 'with its result');
      assert.equal(stored.durationMs, result.data.durationMs);
      assert.ok(stored.finishedAt && Date.parse(stored.finishedAt) < Date.now(), 'finishedAt is when it ended');
      assert.ok(stored.logs.some((line: any) => /finished: success/.test(line.message)));
      const viaApi = await api('GET', `/api/executions/${executionId}`);
      assert.equal(viaApi.body.status, 'success');
      const afterwards = await api('POST', `/api/executions/${executionId}/cancel`);
      assert.deepEqual([afterwards.status, afterwards.body.error], [409, 'EXECUTION_FINISHED']);
    } finally {
      await svc?.close();
      await direct.end().catch(() => undefined);
      await db.close();
      await pages.close();
    }
  });
});
