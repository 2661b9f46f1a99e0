// GET /api/metrics on the real service after real runs in Chromium against the local pages: run counters and
// durations, queue and running gauges while a run waits, open browser contexts, HTTP latency by route pattern,
// process metrics, one registry per service, and 401 for an anonymous caller.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}
// No types ship with it. It checks every line of the exposition and reads counters and gauges; it folds the
// series of a labelled histogram together, so histogram samples are read with `sample` below.
const parseExposition = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

const chromium = chromiumOrSkip();

/** The value of the one sample `name{labels}` (exactly these labels), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]);
    if (JSON.stringify(found.sort()) === wanted) return Number(match[3]);
  }
  return undefined;
}

/** A counter's or gauge's value from the parsed families. */
function valueOf(families: Family[], name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.find((f) => f.name === name);
  const found = family?.metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels));
  return found?.value === undefined ? undefined : Number(found.value);
}

describe('GET /api/metrics', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  const scrape = async (on: TestService = svc, key = apiKey) => {
    const res = await on.request('GET', '/api/metrics', { apiKey: key });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return { text: res.text, families: parseExposition(res.text) };
  };
  const createTask = async (url: string): Promise<string> => {
    const res = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'metrics', mode: 'scrape', url, actions: [] } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };

  before(async () => {
    pages = await startPagesServer();
    // One slot, so a second run has to wait in the queue.
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', MAX_CONCURRENT_RUNS: '1' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await svc.request('GET', '/api/metrics');
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'UNAUTHORIZED');
  });

  it('starts with every run series at 0 and carries the process metrics', async () => {
    const { text, families } = await scrape();
    const types = Object.fromEntries(families.map((f) => [f.name, f.type]));
    assert.equal(types.taskloom_runs_total, 'COUNTER');
    assert.equal(types.taskloom_run_duration_seconds, 'HISTOGRAM');
    assert.equal(types.taskloom_http_request_duration_seconds, 'HISTOGRAM');
    for (const gauge of ['taskloom_runs_queued', 'taskloom_runs_running', 'taskloom_browser_contexts_open']) {
      assert.equal(types[gauge], 'GAUGE', gauge);
      assert.equal(valueOf(families, gauge), 0, gauge);
    }
    for (const status of ['success', 'error', 'timeout', 'cancelled', 'interrupted']) {
      assert.equal(valueOf(families, 'taskloom_runs_total', { status, outcome: status }), 0, status);
    }
    assert.equal(sample(text, 'taskloom_run_duration_seconds_count', { status: 'success' }), undefined);
    assert.ok((valueOf(families, 'process_cpu_user_seconds_total') ?? 0) > 0);
    assert.ok((valueOf(families, 'nodejs_heap_size_used_bytes') ?? 0) > 0);
  });

  it('shows a waiting run in the queue and the running one with its context, then counts both', async () => {
    const slow = await createTask(`${pages.origin}/slow?ms=2500`);
    const quick = await createTask(`${pages.origin}/`);
    const first = svc.request('POST', `/api/tasks/${slow}/api`, { apiKey });
    const second = svc.request('POST', `/api/tasks/${quick}/api`, { apiKey });

    // While the slow run holds the one slot (its page takes 2.5 s), the other waits.
    let during: Family[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      during = (await scrape()).families;
      if (valueOf(during, 'taskloom_runs_queued') === 1 && valueOf(during, 'taskloom_browser_contexts_open') === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(valueOf(during, 'taskloom_runs_queued'), 1);
    assert.equal(valueOf(during, 'taskloom_runs_running'), 1);
    assert.equal(valueOf(during, 'taskloom_browser_contexts_open'), 1);

    const answers = await Promise.all([first, second]);
    for (const answer of answers) assert.equal(answer.body.status, 'success', answer.text);

    const { text, families } = await scrape();
    assert.equal(valueOf(families, 'taskloom_runs_total', { status: 'success', outcome: 'success' }), 2);
    assert.equal(valueOf(families, 'taskloom_runs_total', { status: 'error', outcome: 'error' }), 0);
    for (const gauge of ['taskloom_runs_queued', 'taskloom_runs_running', 'taskloom_browser_contexts_open']) {
      assert.equal(valueOf(families, gauge), 0, gauge);
    }
    assert.equal(sample(text, 'taskloom_run_duration_seconds_count', { status: 'success' }), 2);
    const sum = sample(text, 'taskloom_run_duration_seconds_sum', { status: 'success' }) ?? 0;
    assert.ok(sum >= 2.5, `the slow run alone took 2.5 s; sum ${sum}`);
    // Buckets are cumulative: the slow run (over 2.5 s) is in none up to 2.5, both runs are in +Inf.
    const bucket = (le: string) => sample(text, 'taskloom_run_duration_seconds_bucket', { status: 'success', le });
    assert.ok((bucket('2.5') ?? Number.NaN) <= 1, `le=2.5 holds ${bucket('2.5')}`);
    assert.equal(bucket('+Inf'), 2);
  });

  it('times HTTP requests by method, route pattern and status code, never by raw URL', async () => {
    await svc.request('GET', '/api/tasks/task_not_there', { apiKey });
    await svc.request('GET', '/api/no/such/route/abc123', { apiKey });
    const { text } = await scrape();
    const count = (labels: Record<string, string>) => sample(text, 'taskloom_http_request_duration_seconds_count', labels);
    assert.equal(count({ method: 'POST', route: '/api/tasks/:id/api', status_code: '200' }), 2);
    assert.equal(count({ method: 'GET', route: '/api/tasks/:id', status_code: '404' }), 1);
    assert.equal(count({ method: 'GET', route: 'unmatched', status_code: '404' }), 1);
    assert.equal(count({ method: 'GET', route: '/api/metrics', status_code: '401' }), 1);
    const slowest = sample(text, 'taskloom_http_request_duration_seconds_sum', { method: 'POST', route: '/api/tasks/:id/api', status_code: '200' });
    assert.ok((slowest ?? 0) >= 2.5, `the runs were answered when they ended; sum ${slowest}`);
    for (const raw of ['task_not_there', 'abc123', 'slow?ms']) assert.ok(!text.includes(raw), `${raw} reached a label`);
  });

  it('keeps each service\'s numbers in its own registry', async () => {
    const other = await startService();
    try {
      const { apiKey: otherKey } = await setupAdmin(other);
      const { families } = await scrape(other, otherKey);
      assert.equal(valueOf(families, 'taskloom_runs_total', { status: 'success', outcome: 'success' }), 0);
      assert.equal(valueOf((await scrape()).families, 'taskloom_runs_total', { status: 'success', outcome: 'success' }), 2);
    } finally {
      await other.close();
    }
  });
});
