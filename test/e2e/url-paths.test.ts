import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hostileUrls } from '../support/hostile-urls.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

/** Every endpoint that takes a URL, as (url) => request, with the error code it must give. */
function urlPaths(svc: TestService, apiKey: string) {
  const call = (method: string, path: string, body: unknown) => svc.request(method, path, { apiKey, body });
  return [
    { name: 'POST proxies', code: 'INVALID_URL', send: (url: string) => call('POST', '/api/settings/proxies', { server: url }) },
    { name: 'import proxies', code: 'INVALID_URL', send: (url: string) => call('POST', '/api/settings/proxies/import', { proxies: [{ server: url }] }) },
    { name: 'PUT proxy', code: 'INVALID_URL', send: async (url: string) => {
      const created = await call('POST', '/api/settings/proxies', { server: 'http://93.184.215.14:3128' });
      const id = created.body.proxies.at(-1).id as string;
      return call('PUT', `/api/settings/proxies/${id}`, { server: url });
    } },
    { name: 'provider D address', code: 'INVALID_URL', send: (url: string) => call('POST', '/api/settings/provider-d-api-key', { providerDApiKeys: [url] }) },
    { name: 'POST credential', code: 'INVALID_BASE_URL', send: (url: string) =>
      call('POST', '/api/credentials', { provider: 'tablestore', name: 'c', config: { baseUrl: url, token: 't' } }) },
    { name: 'PUT credential', code: 'INVALID_BASE_URL', send: async (url: string) => {
      const created = await call('POST', '/api/credentials', { provider: 'tablestore', name: 'c', config: { baseUrl: 'https://93.184.215.14', token: 't' } });
      return call('PUT', `/api/credentials/${created.body.id}`, { config: { baseUrl: url, token: 't' } });
    } },
  ];
}

for (const allowPrivate of [false, true]) {
  describe(`every URL-taking endpoint with ALLOW_PRIVATE_NETWORKS=${allowPrivate}`, () => {
    let svc: TestService;
    let apiKey: string;
    before(async () => {
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: String(allowPrivate) });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => { await svc.close(); });

    it(allowPrivate ? 'accepts the private-destination corpus' : 'refuses the private-destination corpus', async () => {
      const urls = hostileUrls();
      assert.ok(urls.length >= 35);
      for (const path of urlPaths(svc, apiKey)) {
        for (const url of urls) {
          const res = await path.send(url);
          if (allowPrivate) {
            assert.equal(res.status, 200, `${path.name} ${url}: ${res.text}`);
          } else {
            assert.equal(res.status, 400, `${path.name} ${url} answered ${res.status}`);
            assert.equal(res.body.error, path.code, `${path.name} ${url}`);
            assert.equal(typeof res.body.details, 'string');
          }
        }
      }
    });
  });
}
