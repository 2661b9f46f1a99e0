// RUN_MEMORY_LIMIT_MB on the real service with real Chromium, both engines: a page allocating JavaScript
// arrays without end, a document whose DOM grows without end, and an image announced as 4 GB each end their
// run with an error naming the limit, while the browser lives on (same process), its memory stays bounded,
// the service answers and the next run succeeds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { liveGroupMembers } from '../../testing/browser/chromium-processes.js';
import { startHungryPages, type HungryPages } from '../support/hungry-pages.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const LIMIT_MB = 256;
const noProc = (() => {
  try {
    readFileSync('/proc/self/status');
    return false;
  } catch {
    return 'no /proc here: the renderer watchdog needs Linux';
  }
})();

/** Private memory (MB) of every process of the browser's process group. */
function browserPrivateMb(pgid: number): number {
  let kb = 0;
  for (const pid of liveGroupMembers(pgid)) {
    try {
      kb += Number(/RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return Math.round(kb / 1024);
}

for (const engine of ['playwright', 'puppeteer'] as const) {
  describe(`a run's memory budget (${engine})`, { skip: chromium.skip || noProc }, () => {
    let svc: TestService;
    let pages: HungryPages;
    let apiKey: string;
    const peaks: Record<string, number> = {};

    before(async () => {
      pages = await startHungryPages();
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: engine, RUN_MEMORY_LIMIT_MB: String(LIMIT_MB) });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      console.log(`# ${engine}: peak private memory of the browser's processes per run (MB, limit ${LIMIT_MB}): ${JSON.stringify(peaks)}`);
      await svc?.close();
      await pages?.close();
    });

    /** Runs a task on `path`, measuring the browser's memory meanwhile; resolves to the run's answer. */
    async function run(path: string, name: string) {
      const task = await svc.request('POST', '/api/tasks', {
        apiKey, body: { name, mode: 'agent', url: `${pages.origin}${path}`, actions: [], timeoutMs: 90_000 },
      });
      assert.equal(task.status, 200, task.text);
      let peak = 0;
      const sampler = setInterval(() => {
        const pid = svc.service.services.browser.browserPid();
        if (pid) peak = Math.max(peak, browserPrivateMb(pid));
      }, 100);
      try {
        const res = await svc.request('POST', `/api/tasks/${task.body.id}/api`, { apiKey });
        assert.equal(res.status, 200, res.text);
        return res.body;
      } finally {
        clearInterval(sampler);
        peaks[name] = peak;
      }
    }

    async function assertStillFine(pid: number | undefined): Promise<void> {
      assert.equal(svc.service.services.browser.browserPid(), pid, 'the browser was not restarted');
      assert.equal((await svc.request('GET', '/api/health')).status, 200);
      const next = await run('/ok', 'next');
      assert.equal(next.status, 'success', JSON.stringify(next.result));
      assert.equal(next.result.title, 'ok');
      assert.equal(svc.service.services.browser.openContexts(), 0);
    }

    it('a warm-up run succeeds', { timeout: 60_000 }, async () => {
      const answer = await run('/ok', 'warm-up');
      assert.equal(answer.status, 'success', JSON.stringify(answer.result));
    });

    it('ends a page allocating JavaScript arrays without end, with an error naming the limit', { timeout: 120_000 }, async () => {
      const pid = svc.service.services.browser.browserPid();
      const answer = await run('/alloc', 'alloc');
      assert.equal(answer.status, 'error');
      // Whichever comes first: the heap limit (the page crashes out of memory) or the watchdog.
      console.log(`# ${engine}: ${answer.result.error.message}`);
      // The two messages name the same things in different orders.
      for (const part of ['memory', `${LIMIT_MB} MB`, 'RUN_MEMORY_LIMIT_MB']) assert.ok(answer.result.error.message.includes(part), part);
      assert.ok(peaks.alloc! < LIMIT_MB + 768, `the browser's memory stayed bounded (${peaks.alloc} MB)`);
      await assertStillFine(pid);
    });

    it('ends a document whose DOM grows without end (no Content-Length): the watchdog ends its renderer', { timeout: 120_000 }, async () => {
      const pid = svc.service.services.browser.browserPid();
      const answer = await run('/dom', 'dom');
      assert.equal(answer.status, 'error');
      assert.match(answer.result.error.message, new RegExp(`^The page used more than ${LIMIT_MB} MB of memory \\(RUN_MEMORY_LIMIT_MB\\)`));
      assert.ok(peaks.dom! < LIMIT_MB + 768, `the browser's memory stayed bounded (${peaks.dom} MB)`);
      await assertStillFine(pid);
    });

    it('ends a run whose page loads a resource announced as 4 GB, as the response arrives', { timeout: 120_000 }, async () => {
      const pid = svc.service.services.browser.browserPid();
      const answer = await run('/declared-huge-page', 'declared-huge');
      assert.equal(answer.status, 'error');
      assert.equal(answer.result.error.message, `The page loaded a response of 4096 MB (${pages.origin}/declared-huge), more than ` +
        `the run's memory limit of ${LIMIT_MB} MB (RUN_MEMORY_LIMIT_MB); the run was ended`);
      await assertStillFine(pid);
    });
  });
}
