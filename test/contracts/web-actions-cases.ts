// The runner's later actions (check, uncheck, select, double_click, right_click, drag_and_drop, reload,
// wait_navigation, wait_network_idle) and `frame`, through the runner on a real engine: part of
// actions.contract.ts, so both engines run them. Pages: testing/browser/pages (widgets.html, frames.html).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { Action } from '../../kernel/contracts/records.js';
import { ActionError, type RunnerOutput } from '../../plugins/runs/runner/index.js';

interface Ran {
  output?: RunnerOutput;
  error?: Error;
  logs: Array<[string, string, number?]>;
  checked: string[];
  probe?: unknown;
}
type Run = (actions: Action[], options?: { probe?: (page: BrowserPage) => Promise<unknown> }) => Promise<Ran>;

const a = (type: string, extra: Partial<Action> = {}): Action => ({ type, ...extra });
const widgetState = (varName: string): Action[] => [a('javascript', { value: 'return widgetState()' }), a('set', { varName })];
const infos = (ran: Ran) => ran.logs.filter(([level]) => level === 'info').map(([, message]) => message);

/** Every widget action once, in the document the `frame` names (none: the page's own). */
const widgetActions = (frame?: string): Action[] => [
  a('check', { selector: '#agree', frame }), a('uncheck', { selector: '#agree', frame }), a('check', { selector: '#agree', frame }),
  a('check', { selector: '#size-l', frame }), a('select', { selector: '#fruit', value: 'Banana', frame }),
  a('double_click', { selector: '#dbl', frame }), a('right_click', { selector: '#ctx', frame }),
  a('drag_and_drop', { selector: '#drag-me', target: '#drop-zone', frame }),
];
const EXPECTED = { agree: true, size: 'l', fruit: 'b', dblclicks: 1, contextmenu: 2, dropped: 'card' };
const pick = (state: Record<string, unknown>) => Object.fromEntries(Object.keys(EXPECTED).map((key) => [key, state[key]]));

export function webActionCases(run: Run, origin: () => string): void {
  it('check, uncheck, select, double_click, right_click and drag_and_drop', async () => {
    const ran = await run([a('navigate', { value: '/widgets.html' }), ...widgetActions(), ...widgetState('state')]);
    assert.equal(ran.error, undefined);
    assert.deepEqual(pick(ran.output?.variables.state as Record<string, unknown>), EXPECTED);
    assert.deepEqual(infos(ran).slice(1, 9), [
      'action 2 (check): #agree', 'action 3 (uncheck): #agree', 'action 4 (check): #agree', 'action 5 (check): #size-l',
      'action 6 (select): #fruit = Banana', 'action 7 (double_click): #dbl', 'action 8 (right_click): #ctx',
      'action 9 (drag_and_drop): #drag-me to #drop-zone',
    ]);
  });

  it('the same inside a nested iframe (the inner one cross-origin) and inside a cross-origin iframe', async () => {
    const nested = '#same >> #inner';
    const cross = 'iframe[name=cross]';
    const states = async (page: BrowserPage) => Promise.all([['#same', '#inner'], [cross]].map(async (chain) =>
      (await page.frame!(chain, 5000)).evaluate('return widgetState()', {})));
    const ran = await run([
      a('navigate', { value: '/frames.html' }), ...widgetActions(nested), ...widgetActions(cross),
      a('type', { selector: '#field', value: 'framed', frame: cross }), a('press', { selector: '#field', key: 'Enter', frame: cross }),
      a('foreach', { selector: '#fruit option', frame: nested }), a('type', { selector: '#field', value: '{$loop.text}|', frame: nested }), a('end'),
    ], { probe: states });
    assert.equal(ran.error, undefined);
    const [inner, other] = ran.probe as Array<Record<string, unknown>>;
    assert.deepEqual([pick(inner!), pick(other!)], [EXPECTED, EXPECTED]);
    assert.ok(infos(ran).includes('action 2 (check): #agree in frame #same >> #inner'));
    assert.ok(infos(ran).includes('action 20 (foreach): #fruit option in frame #same >> #inner → 4 elements'));
  });

  it('reload, wait_navigation (before or after the navigation happened) and wait_network_idle', async () => {
    const js = (value: string) => a('javascript', { value });
    const ran = await run([
      a('navigate', { value: '/widgets.html' }), a('check', { selector: '#agree' }), a('reload'), js('return widgetState().agree'), a('set', { varName: 'afterReload' }),
      a('click', { selector: '#leave-later' }), a('wait_navigation'), js('return document.title'), a('set', { varName: 'later' }),
      a('navigate', { value: '/widgets.html' }), a('click', { selector: '#leave-now' }), a('wait', { value: '300' }), a('wait_navigation'),
      js('return document.title'), a('set', { varName: 'now' }),
      a('navigate', { value: '/widgets.html' }), a('click', { selector: '#fetch-slow' }), a('wait_network_idle', { value: '300' }),
      js('return document.querySelector("#fetched").textContent'), a('set', { varName: 'fetched' }),
    ]);
    assert.equal(ran.error, undefined);
    assert.deepEqual(ran.output?.variables, { afterReload: false, later: 'Second page', now: 'Second page', fetched: 'fetched' });
    assert.ok(ran.checked.includes(`${origin()}/widgets.html`), 'reload asks checkNavigation too');
    assert.ok(infos(ran).includes('action 18 (wait_network_idle): 300 ms quiet'));
  });

  it('fails clearly: no navigation in time, no such option, a frame that is no iframe, bad fields', async () => {
    // The navigate's own navigation would count: a check comes between.
    const late = await run([a('navigate', { value: '/widgets.html' }), a('check', { selector: '#agree' }), a('wait_navigation', { timeoutMs: 500 })]);
    assert.match(late.error?.message ?? '', /^Action 3 \(wait_navigation\): Timed out after 500 ms waiting for a navigation/);
    const option = await run([a('navigate', { value: '/widgets.html' }), a('select', { selector: '#fruit', value: 'Durian' })]);
    assert.match(option.error?.message ?? '', /no option with the value or label "Durian"/);
    const noFrame = await run([a('navigate', { value: '/frames.html' }), a('check', { selector: '#agree', frame: 'h1', timeoutMs: 2000 })]);
    assert.match(noFrame.error?.message ?? '', /selector "h1" is not an iframe/);
    for (const [action, message] of [
      [a('drag_and_drop', { selector: '#drag-me' }), /"drag_and_drop" needs a target/],
      [a('navigate', { value: '/x', frame: '#same' }), /"frame" is only for an action with a selector/],
      [a('select', { value: 'a' }), /"select" needs a selector/],
    ] as const) {
      const ran = await run([action]);
      assert.ok(ran.error instanceof ActionError, `${action.type}: ${ran.error}`);
      assert.match(ran.error.message, message);
    }
  });
}
