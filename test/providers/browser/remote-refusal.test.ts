// Which connection errors of the engines say a remote browser turned the connection away for now (a grid at
// capacity): the messages below are those Playwright 1.65 and Puppeteer gave against a stand-in answering
// 429/503 or holding the upgrade (see remote-per-run.test.ts for the same through real connections).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusalOf } from '../../../providers/browser/shared/remote-refusal.js';

describe('remote refusals', () => {
  const cases: Array<[string, number | 'timeout']> = [
    ['browserType.connect: WebSocket error: ws://127.0.0.1:44669/pw 429 Too Many Requests\nbusy\nCall log:\n  - <ws connecting> ws://127.0.0.1:44669/pw', 429],
    ['browserType.connectOverCDP: WebSocket error: ws://127.0.0.1:44669/devtools/browser/x 503 Service Unavailable\nbusy', 503],
    ['browserType.connectOverCDP: Unexpected status 503 when connecting to http://127.0.0.1:44669/json/version/.', 503],
    ['Unexpected server response: 429', 429],
    ['Failed to fetch browser webSocket URL from http://127.0.0.1:44669/json/version: HTTP Service Unavailable', 503],
    ['Failed to fetch browser webSocket URL from http://127.0.0.1:44669/json/version: HTTP Too Many Requests', 429],
    ['browserType.connect: Timeout 1500ms exceeded.\nCall log:\n  - <ws connecting> ws://127.0.0.1:44943/pw', 'timeout'],
    ['Timed out after 1500 ms connecting to the remote browser', 'timeout'],
  ];
  for (const [message, expected] of cases) {
    it(`${expected}: ${message.split('\n')[0]!.slice(0, 70)}`, () => {
      const refusal = refusalOf(new Error(message), 1500);
      assert.ok(refusal, 'a refusal');
      assert.equal(refusal.busy, true);
      if (expected === 'timeout') {
        assert.equal(refusal.status, undefined);
        assert.equal(refusal.message, 'it did not accept the connection within 1500 ms');
      } else {
        assert.equal(refusal.status, expected);
        assert.match(refusal.message, new RegExp(`^it answered HTTP ${expected} `));
      }
      assert.ok(!refusal.message.includes('127.0.0.1'), 'the endpoint is not quoted');
    });
  }

  it('other failures are not refusals', () => {
    for (const message of [
      'connect ECONNREFUSED 127.0.0.1:9',
      'browserType.connect: WebSocket error: ws://127.0.0.1:503/pw 404 Not Found',
      'browserType.connectOverCDP: Unexpected status 401 when connecting to http://127.0.0.1:4290/json/version/.',
      'Protocol error (Target.createBrowserContext): Not allowed',
    ]) {
      assert.equal(refusalOf(new Error(message), 1000), undefined, message);
    }
  });
});
