// What the recorder makes of what a person did (plugins/studio/recording.ts), and Puppeteer's reading of the role
// selectors it writes: pure functions, no browser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { record, selectScript, stepOf, type Recorded } from '../../plugins/studio/recording.js';
import { puppeteerSelector } from '../../providers/browser/puppeteer/puppeteer-keys.js';

const sel = (...selectors: string[]) => selectors.map((selector, i) => ({ selector, kind: 'k', confidence: 1 - i / 10 }));

describe('the recorder\'s actions', () => {
  it('turns clicks, typing, keys and navigation into actions with the best selector', () => {
    const vars = new Set<string>();
    assert.deepEqual(stepOf({ kind: 'click', selectors: sel('#go', 'button') }, vars)?.action, { type: 'click', selector: '#go' });
    assert.deepEqual(stepOf({ kind: 'type', selectors: sel('#who'), password: false, value: 'Ada' }, vars)?.action, { type: 'type', selector: '#who', value: 'Ada' });
    assert.deepEqual(stepOf({ kind: 'press', key: 'Enter', selectors: sel('#who') }, vars)?.action, { type: 'press', key: 'Enter', selector: '#who' });
    assert.deepEqual(stepOf({ kind: 'press', key: 'Escape', selectors: [] }, vars)?.action, { type: 'press', key: 'Escape' });
    assert.deepEqual(stepOf({ kind: 'navigate', url: 'https://example.com/' }, vars)?.action, { type: 'navigate', value: 'https://example.com/' });
    assert.equal(stepOf({ kind: 'click', selectors: [] }, vars), undefined, 'nothing to name the element by');
    assert.equal(stepOf({ kind: 'type', selectors: sel('#who'), password: false, value: '' }, vars), undefined, 'nothing typed');
    assert.equal(stepOf({ kind: 'hover' } as unknown as Recorded, vars), undefined, 'an unknown kind');
  });

  it('makes each password field a variable of its own, never keeping a value', () => {
    const recording = { steps: [], variables: new Set<string>() };
    const typed = { kind: 'type', selectors: sel('#pw'), password: true, value: 'leaked?' } as Recorded;
    assert.deepEqual(record(recording, typed)?.step.action, { type: 'type', selector: '#pw', value: '{$password}' });
    assert.deepEqual(record(recording, typed)?.step, { action: { type: 'type', selector: '#pw', value: '{$password2}' }, candidates: sel('#pw'), variable: 'password2' });
    assert.deepEqual([...recording.variables], ['password', 'password2']);
    assert.ok(!JSON.stringify(recording.steps).includes('leaked'));
  });

  it('replays a select with a script setting the option and firing input and change', () => {
    const step = stepOf({ kind: 'select', selectors: sel('[data-testid="size"]'), value: 'l"x' }, new Set());
    assert.equal(step?.action.type, 'javascript');
    assert.equal(step?.action.value, selectScript('[data-testid="size"]', 'l"x'));
    assert.match(String(step?.action.value), /el\.value = "l\\"x";/);
    assert.match(String(step?.action.value), /new Event\('change', \{ bubbles: true \}\)/);
  });
});

describe('Puppeteer reads the role selectors of the studio', () => {
  it('as ::-p-aria with the name and role', () => {
    assert.equal(puppeteerSelector('role=button[name="Place order"]'), '::-p-aria([name="Place order"][role="button"])');
    assert.equal(puppeteerSelector('role=link[name="say \\"hi\\""]'), '::-p-aria([name="say \\"hi\\""][role="link"])');
    assert.equal(puppeteerSelector('role=button'), 'role=button', 'without a name: left as written');
  });
});
