// BROWSER_WS_ENDPOINT as logs and run errors show it: tokens in the query, user info and secret paths go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactEndpoint, scrubEndpoint } from '../../../layers/browser-pool/endpoint-redaction.js';

describe('remote browser endpoint redaction', () => {
  it('keeps scheme, host, port and plain path words; hides query values, user info and secret segments', () => {
    assert.equal(redactEndpoint('wss://grid.example.com:3000/playwright/chromium?token=abc123&stealth=true'),
      'wss://grid.example.com:3000/playwright/chromium?token=***&stealth=***');
    assert.equal(redactEndpoint('ws://user:pa55@10.0.0.5:9222/devtools/browser/8f0c1c9e-4a8b-4c52-a0f5-1b2c3d4e5f60'),
      'ws://***@10.0.0.5:9222/devtools/browser/***');
    assert.equal(redactEndpoint('ws://127.0.0.1:41235/2a59b0cf803d594cbb7a6a3ac3e862ae'), 'ws://127.0.0.1:41235/***');
    assert.equal(redactEndpoint('http://chrome.internal:9222'), 'http://chrome.internal:9222');
    assert.equal(redactEndpoint('not a url'), '(an unparsable endpoint)');
  });

  it('scrubs the endpoint and each of its secrets from a vendor message', () => {
    const endpoint = 'ws://bob:hunter22@127.0.0.1:3000/pw-5f3a9c1d7e?token=s3cr3t-t0ken';
    const message = `browserType.connect: WebSocket error: ${endpoint} 401\n  - <ws connecting> ws://127.0.0.1:3000/pw-5f3a9c1d7e?token=s3cr3t-t0ken\n  auth s3cr3t-t0ken hunter22`;
    const scrubbed = scrubEndpoint(message, endpoint);
    for (const secret of ['s3cr3t-t0ken', 'hunter22', 'pw-5f3a9c1d7e']) assert.ok(!scrubbed.includes(secret), `${secret} in ${scrubbed}`);
    assert.match(scrubbed, /ws:\/\/\*\*\*@127\.0\.0\.1:3000\/\*\*\*\?token=\*\*\* 401/);
  });
});
