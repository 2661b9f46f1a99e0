// Debugging a run on the real service with real Chromium: the screenshot a failing run takes (and the task option
// that turns it off), the variables kept for a re-run, a Playwright trace kept with the run, and the Puppeteer
// engine saying that traces need Playwright.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const PNG_MAGIC = '89504e47';
const ZIP_MAGIC = '504b0304';

async function fileStart(svc: TestService, url: string, apiKey: string): Promise<{ status: number; type: string | null; magic: string }> {
  const response = await fetch(svc.baseUrl + url, { headers: { 'x-api-key': apiKey } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), magic: bytes.subarray(0, 4).toString('hex') };
}

describe('debugging a run: failure screenshot, variables, trace', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'debug test', mode: 'agent', url: `${pages.origin}/`, ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  const failing = [{ type: 'click', selector: '#increment' }, { type: 'click', selector: '#missing', timeoutMs: 500 }];

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('a failing run keeps a screenshot of the page, named on its error, and the variables it was given', async () => {
    const id = await createTask({ actions: failing, variables: { who: 'task' } });
    const res = await api('POST', `/api/tasks/${id}/api`, { body: { variables: { who: 'run', password: 'hunter2-planted' } } });
    assert.equal(res.body.status, 'error', res.text);
    const { error, captures } = res.body.result;
    assert.equal(error.actionIndex, 1);
    assert.match(error.message, /^Action 2 \(click\)/);
    assert.match(error.screenshot, /^exec_[\w-]+_1\.png$/);
    assert.deepEqual(captures, [error.screenshot]);
    assert.deepEqual(await fileStart(svc, `/api/data/captures/${error.screenshot}`, apiKey), { status: 200, type: 'image/png', magic: PNG_MAGIC });
    const record = await api('GET', `/api/executions/${res.body.executionId}`);
    assert.deepEqual(record.body.variables, { who: 'run', password: '****' }, 'a secret-looking variable is never answered');
    assert.ok(!record.text.includes('hunter2-planted'));
    assert.equal(record.body.result.error.screenshot, error.screenshot);
  });

  it('takes no screenshot when the task says screenshotOnFailure: false', async () => {
    const id = await createTask({ actions: failing, screenshotOnFailure: false });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'error', res.text);
    assert.equal(res.body.result.error.screenshot, undefined);
    assert.deepEqual(res.body.result.captures, []);
  });

  it('trace: true keeps the run\'s Playwright trace, served but not listed among the captures, deleted with the run', async () => {
    const id = await createTask({ actions: failing });
    const res = await api('POST', `/api/tasks/${id}/api`, { body: { trace: true } });
    assert.equal(res.body.status, 'error', res.text);
    const { trace } = res.body.result;
    assert.match(trace, /^exec_[\w-]+_\d+\.zip$/);
    assert.deepEqual(await fileStart(svc, `/api/data/captures/${trace}`, apiKey), { status: 200, type: 'application/zip', magic: ZIP_MAGIC });
    const listed = await api('GET', `/api/data/captures?runId=${res.body.executionId}`);
    assert.deepEqual(listed.body.map((c: { name: string }) => c.name), [res.body.result.error.screenshot]);
    assert.equal((await api('DELETE', `/api/executions/${res.body.executionId}`)).status, 200);
    assert.equal((await fileStart(svc, `/api/data/captures/${trace}`, apiKey)).status, 404);
  });

  it('the task option trace: true records one on every run, successful ones too', async () => {
    const id = await createTask({ actions: [{ type: 'click', selector: '#increment' }], trace: true });
    const res = await api('POST', `/api/tasks/${id}/api`);
    assert.equal(res.body.status, 'success', res.text);
    assert.match(res.body.result.trace, /\.zip$/);
  });
});

describe('traces with the Puppeteer engine', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_ENGINE: 'puppeteer' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('refuses trace: true on a run with 400 saying traces need Playwright, and runs a tracing task with a warning', async () => {
    const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'p', mode: 'agent', url: `${pages.origin}/`, actions: [], trace: true } });
    const id = created.body.id;
    const refused = await svc.request('POST', `/api/tasks/${id}/api`, { apiKey, body: { trace: true } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error, 'VALIDATION_ERROR');
    assert.match(refused.body.details, /traces need the Playwright engine \(BROWSER_ENGINE=playwright\)/);
    const ran = await svc.request('POST', `/api/tasks/${id}/api`, { apiKey });
    assert.equal(ran.body.status, 'success', ran.text);
    assert.equal(ran.body.result.trace, undefined);
    const record = await svc.request('GET', `/api/executions/${ran.body.executionId}`, { apiKey });
    assert.ok(record.body.logs.some((line: { level: string; message: string }) => line.level === 'warn' && /traces need the Playwright engine/.test(line.message)));
  });
});
