// The action runner's bar, on a real Chromium through the browser pool: every action type against the
// local fixture pages (test/fixtures/pages/runner/). Each engine's test file runs it; both compare the
// reference task with the same literal, so the two engines give the same RunnerOutput and logs.
//   actionsContract('my-engine', (executablePath) => createBrowserPool({ driver: createMyDriver(), ... }));
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { BrowserPool, ContextOutcome } from '../../layers/browser-pool/index.js';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { Action } from '../../kernel/contracts/records.js';
import { ActionError, ExtractionError, runActions, type RunnerHooks, type RunnerOutput } from '../../plugins/runs/runner/index.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { webActionCases } from './web-actions-cases.js';

export type PoolFactory = (executablePath: string) => BrowserPool | Promise<BrowserPool>;
type LogLine = [level: string, message: string, actionIndex?: number];

/** A task touching every action type, with the output and logs every engine must give. */
const REFERENCE = JSON.parse(readFileSync(new URL('../fixtures/pages/runner/reference-task.json', import.meta.url), 'utf8')) as {
  variables: Record<string, unknown>; actions: Action[]; extractionScript: string; output: RunnerOutput; logs: LogLine[];
};

interface RunOptions {
  variables?: Record<string, unknown>;
  extractionScript?: string;
  mode?: string;
  /** Rejects URLs containing this text. */
  refuse?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  onLog?: (message: string) => void;
  /** Read from the page after the run. */
  probe?: (page: BrowserPage) => Promise<unknown>;
}

interface Ran {
  status: ContextOutcome<unknown>['status'];
  output?: RunnerOutput;
  error?: Error;
  logs: LogLine[];
  shots: Buffer[];
  checked: string[];
  probe?: unknown;
  /** When runActions settled (epoch ms). */
  settledAt?: number;
}

const a = (type: string, extra: Partial<Action> = {}): Action => ({ type, ...extra });
const js = (value: string, extra: Partial<Action> = {}) => a('javascript', { value, ...extra });
const text = (selector: string) => `return document.querySelector(${JSON.stringify(selector)}).textContent`;
const infos = (ran: Ran) => ran.logs.filter(([level]) => level === 'info').map(([, message]) => message);

export function actionsContract(engine: string, makePool: PoolFactory): void {
  const chromium = chromiumOrSkip();
  describe(`action runner on ${engine}`, { skip: chromium.skip }, () => {
    let pages: PagesServer;
    let pool: BrowserPool;
    before(async () => {
      pages = await startPagesServer();
      pool = await makePool(chromium.path!);
    });
    after(async () => {
      await pool?.close();
      await pages?.close();
    });

    async function run(actions: Action[], options: RunOptions = {}): Promise<Ran> {
      const ran: Ran = { status: 'ok', logs: [], shots: [], checked: [] };
      const outcome = await pool.withContext({}, async (context, signal) => {
        const page = await context.newPage();
        await page.goto(`${pages.origin}/runner/shop.html`, 10_000);
        const hooks: RunnerHooks = {
          log: (level, message, actionIndex) => {
            ran.logs.push(actionIndex === undefined ? [level, message] : [level, message, actionIndex]);
            options.onLog?.(message);
          },
          saveScreenshot: async (data, ext) => `cap-${ran.shots.push(data)}.${ext}`,
          checkNavigation: async (url) => {
            ran.checked.push(url);
            if (options.refuse && url.includes(options.refuse)) throw new Error(`Navigation to ${url} was refused: private network`);
          },
          signal,
        };
        try {
          ran.output = await runActions(page, {
            actions, variables: options.variables ?? {}, extractionScript: options.extractionScript, mode: options.mode ?? 'agent',
          }, hooks);
        } catch (error) {
          ran.settledAt = Date.now();
          if (signal.aborted) throw error;
          ran.error = error as Error;
        }
        ran.settledAt ??= Date.now();
        if (options.probe) ran.probe = await options.probe(page);
      }, { signal: options.signal, timeoutMs: options.timeoutMs ?? 60_000 });
      ran.status = outcome.status;
      if (outcome.status === 'error') throw outcome.error;
      return ran;
    }

    function failed(ran: Ran, index: number, message: RegExp): ActionError {
      assert.ok(ran.error instanceof ActionError, `an ActionError, got ${ran.error}`);
      assert.equal(ran.error.actionIndex, index);
      assert.match(ran.error.message, message);
      assert.deepEqual(ran.logs.at(-1), ['error', ran.error.message, index], 'the failure is logged');
      return ran.error;
    }

    webActionCases(run, () => pages.origin);

    it('runs the reference task to the same output and logs as every engine', async () => {
      const ran = await run(REFERENCE.actions, { variables: REFERENCE.variables, extractionScript: REFERENCE.extractionScript });
      assert.equal(ran.error, undefined);
      assert.deepEqual(ran.output, REFERENCE.output);
      assert.deepEqual(ran.logs, REFERENCE.logs);
      assert.deepEqual(ran.checked, [`${pages.origin}/runner/second.html?x=2`]);
    });

    it('scrolls by a viewport, by pixels up, and takes viewport and full-page png screenshots', async () => {
      // #late first: it appears above the fold, and scroll anchoring would shift scrollY
      const ran = await run([a('wait_selector', { selector: '#late' }), a('scroll'), js('return scrollY'), a('set', { varName: 'down' }), a('scroll', { value: '-300' }),
        js('return scrollY'), a('set', { varName: 'up' }), a('screenshot'), a('screenshot', { value: 'FULL' })]);
      assert.deepEqual(ran.output?.variables, { down: 720, up: 420 });
      assert.deepEqual(ran.output?.captures, ['cap-1.png', 'cap-2.png']);
      const [viewport, full] = ran.shots.map((png) => ({ magic: png.subarray(0, 4).toString('hex'), height: png.readUInt32BE(20) }));
      assert.deepEqual(viewport, { magic: '89504e47', height: 720 });
      assert.ok(full.magic === '89504e47' && full.height > 1800, `the full page is ${full.height} px high`);
    });

    it('if/else picks a branch from an in-page expression with args and await', async () => {
      const branch = (value: string) => [a('if', { value }), a('set', { varName: 'b', value: 'then' }), a('else'),
        a('set', { varName: 'b', value: 'else' }), a('end')];
      const truthy = await run(branch('await Promise.resolve(document.title === args.vars.title)'), { variables: { title: 'Runner shop' } });
      assert.equal(truthy.output?.variables.b, 'then');
      assert.ok(infos(truthy).includes('action 1 (if): await Promise.resolve(document.title === args.vars.title) → true'));
      const falsy = await run([...branch('document.querySelector("#nothing")'), a('if', { value: '0' }), a('stop'), a('end')]);
      assert.deepEqual([falsy.output?.variables.b, falsy.output?.stopped], ['else', false]);
    });

    it('foreach over XPath and text=, a loop with no match, and stop inside nested loops', async () => {
      const ran = await run([
        a('foreach', { selector: '//td[@class="name"]' }), a('type', { selector: '#search', value: '{$loop.number}={$loop.text};' }), a('end'),
        a('foreach', { selector: '.missing' }), a('click', { selector: '#go' }), a('end'),
        a('foreach', { selector: 'text=add' }), a('foreach', { selector: '.tag' }),
        js('(window.__n ??= []).push(args.loop.parent.index + "." + args.loop.index); return window.__n'),
        a('if', { value: 'args.loop.parent.index === 1 && args.loop.index === 2' }), a('stop'), a('end'), a('end'), a('end'),
        a('click', { selector: '#go' }),
      ], { extractionScript: 'return document.querySelector("#search").value', probe: (p) => p.evaluate(text('#status'), {}) });
      assert.equal(ran.output?.data, '1=Apple;2=Banana;3=Cherry;');
      assert.equal(ran.output?.stopped, true);
      assert.equal(ran.probe, 'idle', 'nothing ran after stop, nor in the empty loop');
      assert.ok(infos(ran).includes('action 4 (foreach): .missing → 0 elements'));
      assert.ok(infos(ran).includes('action 7 (foreach): text=add → 3 elements'));
      assert.ok(infos(ran).includes('action 8 (foreach): .tag → 6 elements'), 'selectors in a loop are document-wide');
      assert.ok(ran.logs.some(([, m]) => m === 'extraction script'), 'the extraction runs after a stop');
    });

    it('set takes the previous output, keeps whole-placeholder types, and warns when there is none', async () => {
      const ran = await run([
        a('set', { varName: 'early' }), js('return { n: 2, list: ["x"] }'), a('click', { selector: '#go' }), a('set', { varName: 'got' }),
        a('set', { varName: 'copy', value: '{$got}' }), a('set', { varName: 'label', value: 'n={$got.n} at {$now}' }),
      ], { variables: { keep: 1 } });
      const vars = ran.output!.variables;
      assert.deepEqual({ ...vars, label: undefined }, { keep: 1, early: null, got: { n: 2, list: ['x'] }, copy: { n: 2, list: ['x'] }, label: undefined });
      assert.match(String(vars.label), /^n=2 at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(ran.logs[0], ['info', 'action 1 (set): early', 0]);
      assert.deepEqual(ran.logs[1], ['warn', 'action 1 (set): no earlier action had an output; early is null', 0]);
    });

    it('templates selectors, values and keys; leaves unknown names as written, with a warning', async () => {
      const ran = await run([
        a('type', { selector: '{$ids.search}', value: '{$who} {$missing}' }), a('click', { selector: '#{$button}' }),
        a('press', { key: '{$key}', selector: '#keys' }), a('press', { key: 'q' }),
      ], { variables: { ids: { search: '#search' }, who: 'Ada', button: 'go', key: 'Shift+Z' },
        probe: (p) => p.evaluate('return [document.querySelector("#status").textContent, document.querySelector("#last-key").textContent]', {}) });
      assert.deepEqual(ran.probe, ['searched: Ada {$missing}', 'q'], 'a key without a selector goes to the focused field');
      assert.deepEqual(ran.logs.filter(([level]) => level === 'warn'), [['warn', 'action 1 (type): unknown variable {$missing} left as is', 0]]);
      assert.deepEqual(infos(ran), ['action 1 (type): #search (14 characters)', 'action 2 (click): #go', 'action 3 (press): Shift+Z on #keys', 'action 4 (press): q']);
    });

    it('fills placeholders in code as raw text: javascript, if, inside foreach, and the extraction script', async () => {
      const code = "return ['{$who}', {$n} + 1, args.vars.who, args.loop, '{$nobody}']";
      const ran = await run([
        js(code), a('set', { varName: 'r' }),
        a('if', { value: "'{$who}' === 'Ada'" }), a('set', { varName: 'b', value: 'yes' }), a('end'),
        a('foreach', { selector: '//td[@class="name"]' }), js("(window.__seen ??= []).push('{$loop.index}:{$loop.text}'); return window.__seen"), a('end'),
        a('set', { varName: 'seen' }),
      ], { variables: { who: 'Ada', n: 41 }, extractionScript: "return '{$who}/{$b}/{$gone}'" });
      assert.equal(ran.error, undefined);
      assert.deepEqual(ran.output?.variables.r, ['Ada', 42, 'Ada', null, '{$nobody}']);
      assert.equal(ran.output?.variables.b, 'yes', 'the condition was filled');
      assert.deepEqual(ran.output?.variables.seen, ['0:Apple', '1:Banana', '2:Cherry']);
      assert.equal(ran.output?.data, 'Ada/yes/{$gone}', 'the extraction sees the variables as the actions left them');
      assert.deepEqual(ran.logs.filter(([level]) => level === 'warn'), [
        ['warn', 'action 1 (javascript): unknown variable {$nobody} left as is', 0],
        ['warn', 'extraction script: unknown variable {$gone} left as is'],
      ]);
      assert.ok(infos(ran).includes(`action 1 (javascript): ${code}`), 'code is logged as written, without the values');
      assert.ok(infos(ran).includes("action 3 (if): '{$who}' === 'Ada' → true"));
    });

    it('skips disabled actions and disabled blocks with a warning', async () => {
      const ran = await run([
        a('click', { selector: '#go', disabled: true }), a('foreach', { selector: '.row', disabled: true }), a('click', { selector: '#go' }), a('end'),
        a('if', { value: 'true', disabled: true }), a('stop'), a('else'), a('stop'), a('end'), a('hover', { selector: '#hover-me' }),
      ], { probe: (p) => p.evaluate(text('#status'), {}) });
      assert.equal(ran.probe, 'idle');
      assert.equal(ran.output?.stopped, false);
      assert.deepEqual(ran.logs, [
        ['warn', 'action 1 (click): skipped (disabled)', 0],
        ['warn', 'action 2 (foreach): skipped with its block, actions 2-4 (disabled)', 1],
        ['warn', 'action 5 (if): skipped with its block, actions 5-9 (disabled)', 4],
        ['info', 'action 10 (hover): #hover-me', 9],
      ]);
    });

    it('a per-action timeout fails that action, naming it and what it waited for', async () => {
      const started = Date.now();
      const click = await run([a('click', { selector: '#go' }), a('click', { selector: '#never', timeoutMs: 300 }), a('click', { selector: '#go' })],
        { probe: (p) => p.evaluate(text('#status'), {}) });
      failed(click, 1, /^Action 2 \(click\): Timed out after 300 ms waiting for selector "#never" to click$/);
      assert.equal(click.probe, 'searched: ', 'the actions after it did not run');
      const script = await run([a('wait_selector', { selector: '#late' }), js('await new Promise(() => {})', { timeoutMs: 300 })]);
      failed(script, 1, /^Action 2 \(javascript\): Timed out after 300 ms waiting for the script to return$/);
      const wait = await run([a('wait_selector', { selector: '#never', timeoutMs: 200 })]);
      failed(wait, 0, /Timed out after 200 ms waiting for selector "#never" to be visible/);
      // Without their own limits the three would wait 10 s, 30 s and 10 s: 25 s tell them apart on a loaded machine.
      assert.ok(Date.now() - started < 25_000, `three timeouts took ${Date.now() - started} ms`);
    });

    it('type and press wait for a field that is missing or hidden at first, then append at its end', async () => {
      const ran = await run([
        js(`setTimeout(() => { const input = document.createElement('input'); input.id = 'added'; input.value = 'a'; document.body.prepend(input); }, 300);
          const keys = document.querySelector('#keys'); keys.value = 'k'; keys.style.visibility = 'hidden';
          setTimeout(() => { keys.style.visibility = ''; }, 300);`),
        a('type', { selector: '#added', value: 'b' }), a('press', { key: 'x', selector: '#keys' }),
      ], { probe: (p) => p.evaluate('return [document.querySelector("#added").value, document.querySelector("#keys").value]', {}) });
      assert.equal(ran.error, undefined);
      assert.deepEqual(ran.probe, ['ab', 'kx']);
      const never = await run([a('type', { selector: '#never', value: 'z', timeoutMs: 300 })]);
      failed(never, 0, /^Action 1 \(type\): Timed out after 300 ms waiting for selector "#never" to be visible$/);
    });

    it('page errors and bad values fail the action with their message', async () => {
      failed(await run([js('throw new Error("boom in page")')]), 0, /^Action 1 \(javascript\): boom in page$/);
      failed(await run([js('return missingThing.x')]), 0, /^Action 1 \(javascript\): missingThing is not defined$/);
      failed(await run([a('wait', { value: 'soon' })]), 0, /"soon" is not a number of milliseconds/);
      failed(await run([js('const o = {}; o.o = o; return o')]), 0, /^Action 1 \(javascript\): Converting circular structure to JSON$/);
      failed(await run([a('navigate', { value: 'file:///etc/passwd' })]), 0, /only http and https/);
    });

    it('an unbalanced list fails before anything runs', async () => {
      const ran = await run([a('click', { selector: '#go' }), a('if', { value: 'true' }), a('end'), a('end')],
        { probe: (p) => p.evaluate(text('#status'), {}) });
      failed(ran, 3, /^Action 4 \(end\): "end" without an open/);
      assert.deepEqual([ran.probe, ran.logs.length], ['idle', 1]);
    });

    it('javascript runs in the page: it sees the document, not the service', async () => {
      const ran = await run([js('return [document.title, location.pathname, typeof process, typeof require, typeof Buffer, args.vars.x]'), a('set', { varName: 'seen' })],
        { variables: { x: 1 } });
      assert.deepEqual(ran.output?.variables.seen, ['Runner shop', '/runner/shop.html', 'undefined', 'undefined', 'undefined', 1]);
      const normal = await run([], { extractionScript: 'return { el: document.body, when: new Date(0), nan: NaN, none: undefined }' });
      assert.deepEqual(normal.output?.data, { el: {}, when: '1970-01-01T00:00:00.000Z', nan: null }, 'values come back JSON-normalised');
    });

    it('a lone expression is its value; get_content gives an element\'s trimmed innerText as the output', async () => {
      const ran = await run([
        js('document.title'), a('set', { varName: 'title' }),
        js('({ path: location.pathname, n: args.vars.n + 1 }) // an object, not a block'), a('set', { varName: 'obj' }),
        js('const n = 1; n'), a('set', { varName: 'body' }),
        a('if', { value: 'if (document.title) return true; return false' }), a('set', { varName: 'branch', value: 'body' }), a('end'),
        a('get_content', { selector: '#t tr.row:nth-child(3) .name' }), a('set', { varName: 'cherry' }),
        a('get_content', { selector: '#late' }), a('set', { varName: 'late' }),
        a('get_content', { selector: '//tr[@data-sku="a1"]' }), a('set', { varName: 'row' }),
      ], { variables: { n: 1 } });
      assert.deepEqual(ran.output?.variables, {
        n: 1, title: 'Runner shop', obj: { path: '/runner/shop.html', n: 2 }, body: null, branch: 'body',
        cherry: 'Cherry', late: 'late', row: 'Apple\tred\tsweet\tadd',
      });
      const missing = await run([a('get_content', { selector: '#nowhere', timeoutMs: 300 })]);
      failed(missing, 0, /^Action 1 \(get_content\): Timed out after 300 ms waiting for selector "#nowhere" to be visible$/);
    });

    it('navigate asks checkNavigation first and a refusal fails the action', async () => {
      const ran = await run([a('navigate', { value: '/runner/second.html' }), a('navigate', { value: 'http://forbidden.test/x?token=s' }), a('click', { selector: '#go' })],
        { refuse: 'forbidden', probe: async (p) => p.url() });
      // The error, like the log, carries the query's names but not its values (they may be secrets).
      failed(ran, 1, /^Action 2 \(navigate\): Navigation to http:\/\/forbidden\.test\/x\?token=\*\*\* was refused: private network$/);
      assert.deepEqual(ran.checked, [`${pages.origin}/runner/second.html`, 'http://forbidden.test/x?token=s']);
      assert.equal(ran.probe, `${pages.origin}/runner/second.html`, 'the refused page was never opened');
      assert.ok(infos(ran).includes('action 2 (navigate): http://forbidden.test/x'), 'the query string stays out of the logs');
    });

    it('cancelling stops a run wedged in while (true) within milliseconds', async () => {
      const controller = new AbortController();
      let abortedAt = 0;
      const cancelSoon = () => setTimeout(() => { abortedAt = Date.now(); controller.abort(new Error('user cancelled')); }, 300);
      const ran = await run([js('while (true) {}'), a('click', { selector: '#go' })],
        { signal: controller.signal, onLog: (message) => { if (message.startsWith('action 1 (javascript)')) cancelSoon(); } });
      assert.equal(ran.status, 'aborted');
      assert.ok(ran.settledAt! - abortedAt < 100, `runActions settled ${ran.settledAt! - abortedAt} ms after the abort`);
      assert.deepEqual(infos(ran), ['action 1 (javascript): while (true) {}']);
    });

    it('the run limit ends a long wait as a timeout', async () => {
      const started = Date.now();
      // The limit covers opening the page too: 6 s leave a loaded machine time to reach the wait, and a settle far
      // below the wait's 60 s shows the limit ended it.
      const ran = await run([a('wait', { value: '60000' }), a('click', { selector: '#go' })], { timeoutMs: 6000 });
      assert.equal(ran.status, 'timeout');
      assert.deepEqual(infos(ran), ['action 1 (wait): 60000 ms']);
      assert.ok(ran.settledAt! - started < 20_000, `settled after ${ran.settledAt! - started} ms`);
    });

    it('scrape mode runs only the extraction; its failure is an ExtractionError', async () => {
      const ran = await run([a('click', { selector: '#go' })], { mode: 'scrape', extractionScript: `${text('#status')}` });
      assert.deepEqual(ran.output, { data: 'idle', stopped: false, variables: {}, captures: [] });
      assert.deepEqual(ran.logs, [['info', 'scrape mode: the 1 actions are not run'], ['info', 'extraction script']]);
      const bad = await run([], { extractionScript: 'return missingThing.x' });
      assert.ok(bad.error instanceof ExtractionError, String(bad.error));
      assert.equal(bad.error.message, 'Extraction script: missingThing is not defined');
      assert.equal((await run([])).output?.data, undefined, 'no script, no data');
    });
  });
}
