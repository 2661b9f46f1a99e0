// Runs with ALLOW_PRIVATE_NETWORKS=false on the real service and real Chromium (the headless shell runs use, the full
// browser, whose WebRTC switch differs, and both engines): what the page does after the first URL is policed too.
// The allowed site stands on 127.0.0.2 (the guard's test allowance), the machine's own on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findOnPath, HEADLESS_NAMES_ON_PATH, NAMES_ON_PATH } from '../../layers/browser-pool/detect-chromium.js';
import { startOutboundSites, type OutboundSites } from '../support/outbound-sites.js';
import { startHttpUpstream, UPSTREAM_CREDENTIALS, type UpstreamStandIn } from '../support/proxy-servers.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const builds = [
  { name: 'headless shell', path: findOnPath(HEADLESS_NAMES_ON_PATH), engine: 'playwright' },
  { name: 'full Chromium', path: findOnPath(NAMES_ON_PATH), engine: 'playwright' },
  { name: 'headless shell', path: findOnPath(HEADLESS_NAMES_ON_PATH), engine: 'puppeteer' },
];

for (const build of builds) {
  describe(`runs under the outbound rule (${build.name}, ${build.engine})`, { skip: build.path ? false : `no ${build.name} on the PATH` }, () => {
    let sites: OutboundSites;
    let svc: TestService;
    let apiKey: string;
    let upstream: UpstreamStandIn;
    const run = async (task: Record<string, unknown>) => {
      const created = await svc.request('POST', '/api/tasks', { apiKey, body: { name: 'outbound', mode: 'agent', actions: [], ...task } });
      assert.equal(created.status, 200, created.text);
      const res = await svc.request('POST', `/api/tasks/${created.body.id}/api`, { apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const pageText = 'return document.body ? document.body.innerText : ""';

    before(async () => {
      sites = await startOutboundSites();
      upstream = await startHttpUpstream('127.0.0.2', (name) => (name === 'allowed.test' ? '127.0.0.2' : name));
      svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'false', BROWSER_EXECUTABLE_PATH: build.path!, BROWSER_ENGINE: build.engine }, undefined, { outbound: sites.guardOptions });
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
      await sites?.close();
    });

    it('loads an allowed page, by address and by name', async () => {
      for (const url of [`${sites.allowed}/`, `http://allowed.test:${sites.allowedPort}/`]) {
        const answer = await run({ url, extractionScript: pageText });
        assert.equal(answer.status, 'success', JSON.stringify(answer));
        assert.equal(answer.result.data, 'allowed page');
      }
    });

    it('refuses a loopback task URL before the browser is asked', async () => {
      const answer = await run({ url: `${sites.secret}/direct` });
      assert.notEqual(answer.status, 'success');
      assert.deepEqual(sites.hits, []);
    });

    it('does not follow a redirect from an allowed host to a private one, by address or by name', async () => {
      const byAddress = await run({ url: `${sites.allowed}/redirect?to=${encodeURIComponent(`${sites.secret}/redirected`)}`, extractionScript: pageText });
      assert.match(String(byAddress.result.data), /Blocked by taskloom's outbound rule: host 127\.0\.0\.1 is a loopback address/);
      const byName = await run({
        url: `${sites.allowed}/redirect?to=${encodeURIComponent(`http://rebind.test:${sites.secretPort}/by-name`)}`, extractionScript: pageText,
      });
      assert.match(String(byName.result.data), /host rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
      assert.deepEqual(sites.hits, []);
    });

    it('keeps page JavaScript from the machine: fetch, XHR, image, WebSocket, a private name, WebRTC', async () => {
      const answer = await run({ url: `${sites.allowed}/probe`, extractionScript: 'return await window.probe' });
      assert.equal(answer.status, 'success', JSON.stringify(answer));
      assert.deepEqual(answer.result.data, {
        fetch: 'failed', fetchByName: 'failed', xhr: 'failed', img: 'failed', websocket: 'failed', webrtc: 'gathered',
      });
      assert.deepEqual(sites.hits, [], 'nothing reached the machine, not even a STUN datagram');
    });

    it('chains a task\'s proxy after the check, holding its credentials, and refuses private destinations through it', async () => {
      const added = await svc.request('POST', '/api/settings/proxies', { apiKey, body: { server: upstream.server, ...UPSTREAM_CREDENTIALS } });
      assert.equal(added.status, 200, added.text);
      const proxyId = added.body.proxies.find((p: { server: string }) => p.server.startsWith(upstream.server)).id;
      const answer = await run({ url: `http://allowed.test:${sites.allowedPort}/`, proxyId, extractionScript: pageText });
      assert.equal(answer.status, 'success', JSON.stringify(answer));
      assert.equal(answer.result.data, 'allowed page');
      assert.ok(upstream.seen.some((s) => s.target === `allowed.test:${sites.allowedPort}` && s.authorised), JSON.stringify(upstream.seen));
      assert.ok(upstream.seen.every((s) => s.authorised), 'the browser never met a 407: the credentials were added for it');

      const seen = upstream.seen.length;
      const redirected = await run({
        url: `${sites.allowed}/redirect?to=${encodeURIComponent(`${sites.secret}/via-upstream`)}`, proxyId, extractionScript: pageText,
      });
      assert.match(String(redirected.result.data), /Blocked by taskloom's outbound rule/);
      assert.ok(upstream.seen.slice(seen).every((s) => !s.target.startsWith('127.0.0.1')), 'the upstream was not asked for it');
      assert.deepEqual(sites.hits, []);
    });
  });
}
