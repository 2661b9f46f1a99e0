// The screencast's start when Chromium refuses it: a viewer that comes as the page's first navigation commits is
// told "Not attached to an active page" (seen with real Chromium: Page.startScreencast sent during a cross-process
// navigation). The start is tried again, and frames then reach the viewer; an ended screencast stops trying.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { it } from 'node:test';
import type { BrowserPage, PageDevtools } from '../../kernel/contracts/browser.js';
import { Screencast } from '../../plugins/studio/screencast.js';

function devtoolsRefusing(refusals: number) {
  const events = new EventEmitter();
  const sent: string[] = [];
  const session: PageDevtools = {
    async send(method) {
      sent.push(method);
      if (method === 'Page.startScreencast' && refusals-- > 0) throw new Error('Protocol error (Page.startScreencast): Not attached to an active page');
      return {};
    },
    on: (event, listener) => { events.on(event, listener); },
    off: (event, listener) => { events.off(event, listener); },
    detach: async () => undefined,
  };
  const page = { devtools: async () => session } as unknown as BrowserPage;
  return { page, events, sent };
}

it('tries the start again while Chromium refuses it, then streams', async () => {
  const { page, events, sent } = devtoolsRefusing(3);
  const cast = new Screencast(page);
  const frames: Buffer[] = [];
  cast.add({ frame: (jpeg, done) => { frames.push(jpeg); done(); }, viewport: () => undefined });
  await cast.devtools();
  assert.equal(sent.filter((m) => m === 'Page.startScreencast').length, 4, 'three refusals, then the start');
  events.emit('Page.screencastFrame', { data: Buffer.from('jpeg').toString('base64'), sessionId: 1, metadata: { deviceWidth: 800, deviceHeight: 600 } });
  assert.deepEqual(frames.map(String), ['jpeg']);
  await cast.end();
});

it('stops trying once the screencast ended', async () => {
  const { page, sent } = devtoolsRefusing(Infinity);
  const cast = new Screencast(page);
  cast.add({ frame: (_jpeg, done) => done(), viewport: () => undefined });
  await new Promise((resolve) => setTimeout(resolve, 250));
  await cast.end();
  const tries = sent.filter((m) => m === 'Page.startScreencast').length;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(sent.filter((m) => m === 'Page.startScreencast').length, tries, 'no try after the end');
  assert.ok(tries >= 2 && tries < 10, `${tries} tries in 250 ms`);
});
