// What the recorder makes of what a person did (plugins/studio/recording.ts), and Puppeteer's reading of the role
// selectors it writes: pure functions, no browser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { record, stepOf, type Recorded, type RecordedStep } from '../../plugins/studio/recording.js';
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
    assert.deepEqual(record(recording, typed)[0]?.step.action, { type: 'type', selector: '#pw', value: '{$password}' });
    assert.deepEqual(record(recording, typed)[0]?.step, { action: { type: 'type', selector: '#pw', value: '{$password2}' }, candidates: sel('#pw'), variable: 'password2' });
    assert.deepEqual([...recording.variables], ['password', 'password2']);
    assert.ok(!JSON.stringify(recording.steps).includes('leaked'));
  });

  it('waits for an element that appeared since the step before, then acts on it', () => {
    const recording = { steps: [], variables: new Set<string>() };
    assert.deepEqual(record(recording, { kind: 'click', selectors: sel('#load'), appeared: false }).map((a) => a.index), [0]);
    const added = record(recording, { kind: 'click', selectors: sel('text=Later', 'button'), appeared: true });
    assert.deepEqual(added.map((a) => [a.index, a.step.action]), [
      [1, { type: 'wait_selector', selector: 'text=Later' }], [2, { type: 'click', selector: 'text=Later' }],
    ]);
    const chosen = record(recording, { kind: 'select', selectors: sel('#size'), value: 'l', appeared: true });
    assert.deepEqual(chosen.map((a) => a.step.action.type), ['wait_selector', 'select']);
    assert.equal(chosen[0]!.step.action.selector, '#size');
    assert.deepEqual(record(recording, { kind: 'press', key: 'Escape', selectors: [], appeared: true }).map((a) => a.step.action.type), ['press'], 'no element: nothing to wait for');
  });

  it('records a wheel scroll of the window, adding up scrolls in a row', () => {
    const recording = { steps: [], variables: new Set<string>() };
    assert.deepEqual(record(recording, { kind: 'scroll', by: 300 })[0]?.step.action, { type: 'scroll', value: '300' });
    assert.deepEqual(record(recording, { kind: 'scroll', by: -100 }), [{ index: 0, step: { action: { type: 'scroll', value: '200' }, candidates: [] } }]);
    assert.deepEqual(record(recording, { kind: 'scroll', by: 0 }), [], 'no distance: no action');
    record(recording, { kind: 'click', selectors: sel('#go') });
    assert.deepEqual(record(recording, { kind: 'scroll', by: 50 })[0]?.index, 2, 'after another action: a scroll of its own');
  });

  it('records check boxes by their state, a right click, and folds a double click\'s two clicks into one action', () => {
    const vars = new Set<string>();
    assert.deepEqual(stepOf({ kind: 'check', checked: true, selectors: sel('#agree') }, vars)?.action, { type: 'check', selector: '#agree' });
    assert.deepEqual(stepOf({ kind: 'check', checked: false, selectors: sel('#agree') }, vars)?.action, { type: 'uncheck', selector: '#agree' });
    assert.deepEqual(stepOf({ kind: 'right_click', selectors: sel('#menu') }, vars)?.action, { type: 'right_click', selector: '#menu' });
    const recording = { steps: [] as RecordedStep[], variables: vars };
    record(recording, { kind: 'click', selectors: sel('#open'), appeared: true });
    record(recording, { kind: 'click', selectors: sel('#open') });
    const folded = record(recording, { kind: 'dblclick', selectors: sel('#open') });
    assert.deepEqual(folded.map((a) => [a.index, a.step.action]), [[1, { type: 'double_click', selector: '#open' }]]);
    assert.deepEqual(recording.steps.map((s) => s.action.type), ['wait_selector', 'double_click'], 'the wait for the element stays');
    assert.deepEqual(record(recording, { kind: 'dblclick', selectors: sel('#other') }), [], 'no two clicks on it before: nothing to fold');
  });

  it('records a select as a select action of the option chosen (its value)', () => {
    const step = stepOf({ kind: 'select', selectors: sel('[data-testid="size"]'), value: 'l"x' }, new Set());
    assert.deepEqual(step?.action, { type: 'select', selector: '[data-testid="size"]', value: 'l"x' });
  });
});

describe('Puppeteer reads the role selectors of the studio', () => {
  it('as ::-p-aria with the name and role', () => {
    assert.equal(puppeteerSelector('role=button[name="Place order"]'), '::-p-aria([name="Place order"][role="button"])');
    assert.equal(puppeteerSelector('role=link[name="say \\"hi\\""]'), '::-p-aria([name="say \\"hi\\""][role="link"])');
    assert.equal(puppeteerSelector('role=button'), 'role=button', 'without a name: left as written');
  });
});
