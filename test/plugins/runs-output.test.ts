// After a run: `result.data` rows pushed to a tablestore table (the Baserow stand-in) through a stored credential,
// failures recorded (and with onError 'fail' the run fails); and the proxy a run uses comes from the settings.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startBaserowStandIn, type BaserowStandIn } from '../stand-ins/baserow.js';
import { startCountingProxy, startPagesServer, type CountingProxy, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();
const ROWS = [{ Name: 'alpha', Count: 1 }, { Name: 'beta', Count: 2 }];

describe('runs: output push and proxies', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let baserow: BaserowStandIn;
  let proxy: CountingProxy;
  let apiKey: string;
  let credentialId: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', '/api/tasks', { body: { name: 'output test', mode: 'agent', url: `${pages.origin}/`, actions: [], ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };
  const run = async (task: Record<string, unknown>) => {
    const res = await api('POST', `/api/tasks/${await createTask(task)}/api`);
    assert.equal(res.status, 200, res.text);
    const record = (await api('GET', `/api/executions/${res.body.executionId}`)).body;
    return { answer: res.body, record, text: res.text + JSON.stringify(record) };
  };
  const returning = (value: unknown) => `return ${JSON.stringify(value)}`;

  before(async () => {
    pages = await startPagesServer();
    baserow = await startBaserowStandIn();
    proxy = await startCountingProxy();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    const credential = await api('POST', '/api/credentials', {
      body: { provider: 'tablestore', name: 'Baserow', config: { baseUrl: `${baserow.url}/`, token: baserow.token } },
    });
    assert.equal(credential.status, 200, credential.text);
    credentialId = credential.body.id;
  });
  beforeEach(() => baserow.reset());
  after(async () => {
    await svc?.close();
    await Promise.all([pages?.close(), baserow?.close(), proxy?.close()]);
  });

  it('pushes an array of objects to the table after the run and records how many', async () => {
    const { answer, record } = await run({ extractionScript: returning(ROWS), output: { credentialId, tableId: 101 } });
    assert.equal(answer.status, 'success');
    assert.deepEqual(baserow.rows.get(101), ROWS);
    assert.deepEqual(record.output, { pushed: 2 });
    assert.ok(record.logs.some((l: { message: string }) => /pushed 2 rows/.test(l.message)));
  });

  it('pushes one object as one row (tableId as a string too)', async () => {
    const { record } = await run({ extractionScript: returning(ROWS[0]), output: { credentialId, tableId: '102' } });
    assert.deepEqual(baserow.rows.get(102), [ROWS[0]]);
    assert.deepEqual(record.output, { pushed: 1 });
  });

  it('records data of another shape as an output error; the run stays a success with onError ignore', async () => {
    const { answer, record } = await run({ extractionScript: returning('just text'), output: { credentialId, tableId: 101 } });
    assert.equal(answer.status, 'success');
    assert.equal(record.output.pushed, 0);
    assert.match(record.output.error, /result\.data is string/);
    assert.equal(baserow.rows.size, 0);
  });

  it('fails the run with onError fail when the table refuses the rows, never showing the token', async () => {
    baserow.fail('500');
    const { answer, record, text } = await run({ extractionScript: returning(ROWS), output: { credentialId, tableId: 101, onError: 'fail' } });
    assert.equal(answer.status, 'error');
    assert.match(answer.result.error.message, /Pushing the rows to the output failed/);
    assert.deepEqual(answer.result.data, ROWS, 'the data is still answered');
    assert.equal(record.status, 'error');
    assert.equal(record.output.code, 'UPSTREAM_ERROR');
    assert.ok(!text.includes(baserow.token), 'the token appears nowhere');
  });

  it('records an unknown credential as an output error without failing an onError ignore run', async () => {
    const { answer, record } = await run({ extractionScript: returning(ROWS), output: { credentialId: 'cred_gone', tableId: 101 } });
    assert.equal(answer.status, 'success');
    assert.equal(record.output.code, 'CREDENTIAL_NOT_FOUND');
  });

  it('does not push the data of a failed run', async () => {
    const { answer, record } = await run({
      actions: [{ type: 'click', selector: '#nope', timeoutMs: 200 }], extractionScript: returning(ROWS), output: { credentialId, tableId: 101 },
    });
    assert.equal(answer.status, 'error');
    assert.equal(record.output, undefined);
    assert.equal(baserow.requests.length, 0);
  });

  it('uses the proxy the settings choose: the task proxyId, then the default proxy', async () => {
    const added = await api('POST', '/api/settings/proxies', { body: { server: proxy.server, label: 'counting' } });
    assert.equal(added.status, 200, added.text);
    const proxyId = added.body.proxies.find((p: { server: string }) => p.server === proxy.server).id;

    const byId = await run({ url: 'http://shop.example.test/page', proxyId });
    assert.equal(byId.answer.status, 'success', byId.text);
    assert.equal(byId.answer.result.title, 'Proxied shop.example.test');
    assert.ok(byId.record.logs.some((l: { message: string }) => l.message === `using proxy ${proxy.server}/`));

    const rotation = await api('POST', '/api/settings/proxies/rotation', { body: { defaultProxyId: proxyId } });
    assert.equal(rotation.status, 200, rotation.text);
    const byDefault = await run({ url: 'http://other.example.test/' });
    assert.equal(byDefault.answer.result.title, 'Proxied other.example.test');
    assert.deepEqual([...new Set(proxy.hosts)], ['shop.example.test', 'other.example.test'], 'page and favicon went through it');
    await api('POST', '/api/settings/proxies/rotation', { body: { defaultProxyId: 'host' } });

    const unknown = await run({ proxyId: 'px_gone' });
    assert.equal(unknown.answer.status, 'error');
    assert.match(unknown.answer.result.error.message, /Choosing the proxy failed: Proxy px_gone not found/);
  });
});
