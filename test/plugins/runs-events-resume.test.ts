// The event stream's `id:` fields and `Last-Event-ID` on one instance (QUEUE=memory): each `log` event carries its
// line's index in the stored record, and a stream reopened with `Last-Event-ID: n` goes on after line n, for a
// run under way (followed live) and for one that has ended (from its record); a header that is no index is ignored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { openSse, type SseEvent } from '../support/sse-reader.js';

const chromium = chromiumOrSkip();
const logsOf = (events: SseEvent[]) => events.filter((e) => e.event === 'log');

describe('run events: ids and Last-Event-ID', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('numbers the lines and resumes after the one named, live and after the end', async () => {
    const task = await svc.request('POST', '/api/tasks', {
      apiKey, body: { name: 'resume', mode: 'agent', url: `${pages.origin}/`, actions: [400, 400, 400, 400, 400].map((ms) => ({ type: 'wait', value: String(ms) })) },
    });
    assert.equal(task.status, 200, task.text);
    const started = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey, headers: { prefer: 'respond-async' } });
    const { executionId } = started.body as { executionId: string };
    const url = `${svc.baseUrl}/api/executions/${executionId}/events`;
    const first = await openSse(url, apiKey);
    const full = await openSse(url, apiKey, { 'last-event-id': 'not-a-number' });
    while (logsOf(first.seen).length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    first.close();
    const resumed = await openSse(url, apiKey, { 'last-event-id': '2' });
    const [rest, everything] = [logsOf(await resumed.ended), logsOf(await full.ended)];
    const stored = (await svc.request('GET', `/api/executions/${executionId}`, { apiKey })).body;
    assert.equal(stored.status, 'success');
    assert.deepEqual(everything.map((e) => [e.id, e.data]), stored.logs.map((line: unknown, i: number) => [String(i), line]), 'ids are the stored indexes');
    assert.deepEqual(rest.map((e) => [e.id, e.data]), everything.slice(3).map((e) => [e.id, e.data]), 'live: after line 2');
    const ended = await (await openSse(url, apiKey, { 'last-event-id': String(stored.logs.length - 3) })).ended;
    assert.deepEqual(logsOf(ended).map((e) => e.data), stored.logs.slice(-2), 'ended: after the line named, from the record');
    assert.deepEqual(ended.filter((e) => e.event !== 'log').map((e) => e.event), ['status', 'result'], 'then the status and the result');
    assert.ok(ended.filter((e) => e.event !== 'log').every((e) => e.id === undefined), 'only lines carry ids');
  });
});
