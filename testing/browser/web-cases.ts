// The browser contract's 1.3 page members (check, select, double and right click, drag and drop, reload,
// navigations, network idle, frames), on testing/browser/pages/widgets.html, directly and inside iframes: a
// same-origin one holding a cross-origin one, and a cross-origin one (the other loopback name: 127.0.0.1 or
// localhost, so Chromium gives it a process of its own).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { BrowserFrame, BrowserPage } from '../../kernel/contracts/browser.js';
import type { PagesServer } from './pages-server.js';

const T = 5000;

interface WidgetState {
  agree: boolean; size: string; fruit: string; fruitIndex: number; clicks: number; dblclicks: number;
  contextmenu: number | null; changes: string[]; inputs: number; dropped: string | null; checkboxChanges: number;
}

const state = (doc: BrowserFrame) => doc.evaluate('return widgetState()', {}) as Promise<WidgetState>;

/** What every engine does with the widgets of one document (a page's own, or a frame's). */
async function driveWidgets(doc: BrowserFrame): Promise<void> {
  await doc.setChecked!('#agree', true, T);
  await doc.setChecked!('#agree', true, T); // already checked: nothing to do
  await doc.setChecked!('#size-l', true, T);
  let seen = await state(doc);
  assert.deepEqual([seen.agree, seen.size, seen.checkboxChanges], [true, 'l', 1]);
  await doc.setChecked!('#agree', false, T);
  await assert.rejects(doc.setChecked!('#size-l', false, T), 'a radio button cannot be unchecked by clicking it');

  await doc.selectOption!('#fruit', 'b', T); // by value
  await doc.selectOption!('#fruit', 'Banana', T); // by label, trimmed: the same option
  await doc.selectOption!('#fruit', 'Apple', T); // a value wins over a label
  seen = await state(doc);
  assert.deepEqual([seen.agree, seen.fruit, seen.fruitIndex], [false, 'Apple', 3]);
  assert.deepEqual(seen.changes, ['b', 'b', 'Apple'], 'each selection fires a bubbling change');
  assert.equal(seen.inputs, 3);
  await doc.selectOption!('#fruit', '', T);
  assert.equal((await state(doc)).fruitIndex, 0, 'an empty value selects the option whose value is empty');
  await assert.rejects(doc.selectOption!('#fruit', 'Durian', T), /no option with the value or label "Durian"/);
  await assert.rejects(doc.selectOption!('#field', 'x', T), /not a <select>/);

  await doc.clickAs!('#dbl', 'double', T);
  await doc.clickAs!('#ctx', 'right', T);
  seen = await state(doc);
  assert.deepEqual([seen.dblclicks, seen.clicks, seen.contextmenu], [1, 2, 2]);

  await doc.dragAndDrop!('#drag-me', '#drop-zone', T);
  assert.equal((await state(doc)).dropped, 'card', 'an HTML5 drop with the data its dragstart set');
}

export function webCases(get: () => { page: BrowserPage; pages: PagesServer }): void {
  /** The same server by its other loopback name: another origin. */
  const crossOrigin = () => get().pages.origin.replace('127.0.0.1', 'localhost');

  it('1.3: check, select by value or label, double and right click, drag and drop', async () => {
    const { page, pages } = get();
    await page.goto(`${pages.origin}/widgets.html`, T);
    await driveWidgets(page);
    await assert.rejects(page.setChecked!('#missing', true, 300), /#missing/);
  });

  it('1.3: the same inside a nested iframe and inside a cross-origin one', async () => {
    const { page, pages } = get();
    await page.goto(`${pages.origin}/frames.html`, T);
    const nested = await page.frame!(['#same', '#inner'], T);
    await nested.waitForSelector('#agree', T);
    assert.equal(new URL(nested.url()).origin, crossOrigin(), 'the inner frame is of another origin');
    await driveWidgets(nested);
    const cross = await page.frame!(['iframe[name=cross]'], T);
    await cross.waitForSelector('#agree', T);
    await driveWidgets(cross);
    await cross.type('#field', 'in a frame', T);
    await cross.press('!', '#field', T);
    assert.equal(await cross.evaluate('return document.querySelector("#field").value', {}), 'in a frame!');
    assert.equal(await cross.title(), 'Widgets');
    const outer = await page.frame!(['#same'], T);
    assert.equal(await outer.evaluate('return document.querySelector("#outer-text").textContent', {}), 'outer');
    assert.equal(await page.evaluate('return document.title', {}), 'Frames', 'the page itself is untouched');
    await assert.rejects(page.frame!(['h1'], T), /not an iframe/);
    await assert.rejects(page.frame!(['#no-such-frame'], 400), /#no-such-frame/);
  });

  it('1.3: reload, navigations and waiting for one, the network going quiet', async () => {
    const { page, pages } = get();
    await page.goto(`${pages.origin}/widgets.html`, T);
    await page.setChecked!('#agree', true, T);
    const before = page.navigations!();
    await page.reload!(T);
    assert.equal((await state(page)).agree, false, 'a fresh document');
    assert.ok(page.navigations!() > before, 'a reload is a navigation');

    let mark = page.navigations!();
    await page.click('#leave-later', T);
    await page.waitForNavigation!(mark, T);
    assert.equal(await page.title(), 'Second page');

    await page.goto(`${pages.origin}/widgets.html`, T);
    mark = page.navigations!();
    await page.click('#leave-now', T);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.waitForNavigation!(mark, T); // it happened already: nothing left to wait for
    assert.equal(await page.title(), 'Second page');
    await assert.rejects(page.waitForNavigation!(page.navigations!(), 400), /400 ms/);

    await page.goto(`${pages.origin}/widgets.html`, T);
    await page.click('#fetch-slow', T);
    await page.waitForNetworkIdle!(300, 10_000);
    assert.equal(await page.evaluate('return document.querySelector("#fetched").textContent', {}), 'fetched', 'idle only once the slow fetch ended');
  });
}
