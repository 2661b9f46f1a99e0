// POST /api/browser/open answers a wsEndpoint whose token opens the managed browser: its host must not be the
// Host header as sent (an IP literal passes the Host check, so a caller or a proxy could name any address and
// have the token sent there). A configured name is used as given; anything else becomes the address the
// connection reached.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** POST /api/browser/open with the Host header given; resolves to the status and the wsEndpoint's host. */
function openWithHost(baseUrl: string, apiKey: string, host: string): Promise<{ status: number; endpointHost?: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ headless: true });
    const request = http.request(`${baseUrl}/api/browser/open`, {
      method: 'POST',
      headers: { host, 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      response.on('end', () => {
        const answer = JSON.parse(text) as { wsEndpoint?: string };
        resolve({ status: response.statusCode ?? 0, endpointHost: answer.wsEndpoint ? new URL(answer.wsEndpoint).host : undefined });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('POST /api/browser/open does not echo the Host header', { skip: chromium.skip }, () => {
  let svc: TestService;
  let apiKey: string;
  const display = process.env.DISPLAY;
  before(async () => {
    delete process.env.DISPLAY;
    svc = await startService({ BROWSER_EXECUTABLE_PATH: chromium.path!, ALLOWED_HOSTS: 'taskloom.test' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    if (display !== undefined) process.env.DISPLAY = display;
  });

  it('uses the address the connection reached for an IP literal it was not configured under', async () => {
    const reached = new URL(svc.baseUrl).host;
    const res = await openWithHost(svc.baseUrl, apiKey, '203.0.113.66:8080');
    assert.equal(res.status, 200);
    assert.equal(res.endpointHost, reached, 'the token would go to the address the caller named');
  });

  it('keeps a configured name (ALLOWED_HOSTS, localhost, the listen address) with its port', async () => {
    const port = new URL(svc.baseUrl).port;
    for (const host of ['taskloom.test:8443', `localhost:${port}`, `127.0.0.1:${port}`]) {
      const res = await openWithHost(svc.baseUrl, apiKey, host);
      assert.deepEqual([res.status, res.endpointHost], [200, host]);
    }
  });
});
