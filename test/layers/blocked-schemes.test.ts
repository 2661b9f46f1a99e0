import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBlockedNavigation, mustLeavePage } from '../../layers/browser-pool/blocked-schemes.js';

describe('blocked schemes', () => {
  it('refuses the host\'s files and the browser\'s internal pages, however written', () => {
    for (const url of ['file:///etc/passwd', 'FILE:///etc/passwd', ' file:/etc/passwd', 'view-source:file:///etc/passwd',
      'view-source:view-source:file:///x', 'chrome://settings', 'Chrome://version/', 'chrome-untrusted://terminal/',
      'devtools://devtools/bundled/inspector.html', 'chrome-extension://abc/page.html', 'chrome-search://local-ntp/']) {
      assert.equal(isBlockedNavigation(url), true, url);
    }
  });

  it('lets web pages, data:, blob:, about: and view-source of a web page through', () => {
    for (const url of ['https://example.com/', 'http://127.0.0.1:8080/', 'data:text/html,<p>x', 'blob:https://example.com/1',
      'about:blank', 'view-source:https://example.com/', 'chrome-error://chromewebdata/', 'javascript:void 0']) {
      assert.equal(isBlockedNavigation(url), false, url);
    }
  });

  it('leaves Chromium\'s new-tab page alone, and nothing else internal', () => {
    assert.equal(mustLeavePage('chrome://newtab/'), false);
    assert.equal(mustLeavePage('chrome://new-tab-page/'), false);
    assert.equal(mustLeavePage('chrome-search://local-ntp/local-ntp.html'), false);
    assert.equal(mustLeavePage('chrome://version/'), true);
    assert.equal(mustLeavePage('chrome://newtab-evil/'), true);
    assert.equal(mustLeavePage('https://example.com/'), false);
  });
});
