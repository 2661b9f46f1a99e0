// 200 runs in a row through POST /api/tasks/{id}/api (3 callers at a time), some failing and two timing out
// (which kills the browser):
// no Chromium process outlives its use, open contexts go back to 0, and closing the service ends Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { liveGroupMembers, waitFor } from '../../testing/browser/chromium-processes.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const RUNS = 200;
const TIMEOUT_AT = new Set([60, 140]);
const CALLERS = 3;

describe('200 runs in a row', { skip: chromium.skip }, () => {
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

  it('leave no extra Chromium processes and no open contexts', { timeout: 480_000 }, async () => {
    const create = async (actions: unknown[], extra: Record<string, unknown> = {}) => {
      const res = await svc.request('POST', '/api/tasks', {
        apiKey, body: { name: 'leak', mode: 'agent', url: `${pages.origin}/second.html`, actions, ...extra },
      });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const ok = await create([{ type: 'javascript', value: 'return 1' }], { extractionScript: 'return document.title' });
    const failing = await create([{ type: 'javascript', value: 'throw new Error("planned failure")' }]);
    const hanging = await create([{ type: 'javascript', value: 'while (true) {}' }], { timeoutMs: 1000 });
    const { browser } = svc.service.services;

    const run = async (taskId: string) => (await svc.request('POST', `/api/tasks/${taskId}/api`, { apiKey })).body.status as string;
    assert.equal(await run(ok), 'success');
    const firstPid = browser.browserPid()!;
    const baseline = liveGroupMembers(firstPid).length;
    const pids = new Set([firstPid]);
    const statuses: Record<string, number> = { success: 1 };
    const expected: Record<string, number> = { success: 1, error: 0, timeout: 0 };
    // A few callers at a time, as clients do: the queue and the pool see runs start and end back to back.
    let next = 1;
    const caller = async () => {
      while (next < RUNS) {
        const i = next++;
        const kind = TIMEOUT_AT.has(i) ? 'timeout' : i % 5 === 0 ? 'error' : 'success';
        expected[kind]!++;
        const status = await run(kind === 'timeout' ? hanging : kind === 'error' ? failing : ok);
        statuses[status] = (statuses[status] ?? 0) + 1;
        const pid = browser.browserPid();
        if (pid) pids.add(pid);
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));
    assert.deepEqual(statuses, expected);
    assert.equal(browser.openContexts(), 0);
    const current = browser.browserPid()!;
    for (const pid of pids) {
      if (pid !== current) assert.deepEqual(liveGroupMembers(pid), [], `the browser ${pid} given up after a timeout is gone`);
    }
    await waitFor(() => liveGroupMembers(current).length <= baseline, 5000,
      `the browser to shrink back to ${baseline} processes (has ${liveGroupMembers(current).length})`);
    const history = await svc.request('GET', '/api/executions?limit=1000', { apiKey });
    assert.equal(history.body.length, RUNS);
    assert.ok(history.body.every((e: { finishedAt?: string }) => e.finishedAt), 'every record is final');

    await svc.service.close();
    await waitFor(() => liveGroupMembers(current).length === 0, 5000, 'Chromium to end with the service');
  });
});
