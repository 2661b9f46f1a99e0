// The replaced product's tasks and actions as taskloom's (plugins/portability/replaced-product/): pure mapping,
// each rule of README "Moving tasks from the product we replace". Runs in Chromium: portability-replaced-import.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskloomError } from '../../kernel/errors.js';
import { mapActions } from '../../plugins/portability/replaced-product/actions.js';
import { bundleFromProductExport } from '../../plugins/portability/replaced-product/tasks.js';

const one = (action: Record<string, unknown>) => mapActions([action]);

describe('replaced product: actions', () => {
  it('maps each kind of action, keeping ids (a split action numbers its first parts) and disabled', () => {
    assert.deepEqual(one({ id: 'a', type: 'goto', value: 'https://example.com/' }).actions, [{ id: 'a', type: 'navigate', value: 'https://example.com/' }]);
    assert.deepEqual(one({ type: 'click', selector: '#b', timeout: 3000, disabled: true }).actions, [{ type: 'click', selector: '#b', timeoutMs: 3000, disabled: true }]);
    assert.deepEqual(one({ type: 'type', selector: '#q', value: 'x', typeMode: 'append' }).actions, [{ type: 'type', selector: '#q', value: 'x' }]);
    const replace = one({ id: 't', type: 'fill', selector: '#q', value: 'x' }).actions;
    assert.deepEqual(replace.map((a) => [a.id, a.type]), [['t-1', 'javascript'], ['t', 'type']]);
    assert.deepEqual(one({ type: 'wait', value: '1.5' }).actions, [{ type: 'wait', value: '1500' }]);
    assert.deepEqual(one({ type: 'wait' }).actions, [{ type: 'wait', value: '2000' }]);
    assert.deepEqual(one({ type: 'wait_selector', selector: '#x' }).actions, [{ type: 'wait_selector', selector: '#x', timeoutMs: 10000 }]);
    assert.deepEqual(one({ type: 'press', key: 'Enter' }).actions, [{ type: 'press', key: 'Enter' }]);
    assert.deepEqual(one({ type: 'scroll', value: '300' }).actions, [{ type: 'scroll', value: '300' }]);
    assert.deepEqual(one({ type: 'get_content', selector: 'h1', varName: 'heading' }).actions, [{ type: 'get_content', selector: 'h1' }, { type: 'set', varName: 'heading' }]);
    assert.deepEqual(one({ type: 'foreach', selector: 'li' }).actions, [{ type: 'foreach', selector: 'li' }]);
    assert.deepEqual(one({ type: 'stop' }).actions, [{ type: 'stop' }]);
    assert.equal(one({ type: 'stop', value: 'error' }).actions[0]!.type, 'javascript');
  });

  it('set: {$block.output} is the previous output; JSON-looking values keep their type; text stays text', () => {
    assert.deepEqual(one({ type: 'set', varName: '{$x}', value: '{$block.output}' }).actions, [{ type: 'set', varName: 'x' }]);
    assert.deepEqual(one({ type: 'set', varName: 'x', value: 'hello {$name}' }).actions, [{ type: 'set', varName: 'x', value: 'hello {$name}' }]);
    assert.deepEqual(one({ type: 'set', varName: 'x', value: '42' }).actions, [{ type: 'javascript', value: '42' }, { type: 'set', varName: 'x' }]);
    assert.deepEqual(one({ type: 'set', varName: 'x', value: '' }).actions, [{ type: 'javascript', value: "''" }, { type: 'set', varName: 'x' }]);
  });

  it('javascript written for eval returns its last expression, with html when it names it', () => {
    assert.deepEqual(one({ type: 'javascript', value: 'document.title' }).actions, [{ type: 'javascript', value: 'document.title' }]);
    assert.deepEqual(one({ type: 'javascript', value: 'const n = 2; n * 2' }).actions, [{ type: 'javascript', value: 'const n = 2; return n * 2' }]);
    assert.match(one({ type: 'javascript', value: 'html.length' }).actions[0]!.value!, /^const html = document\.documentElement\.outerHTML;\n[\s\S]*return \(\nhtml\.length\n\);/);
    assert.match(one({ type: 'javascript', value: 'const n = html.length; if (n) { window.n = n }' }).actions[0]!.value!,
      /\nreturn await \(async \(\) => \{\nconst n = html\.length; if \(n\) \{ window\.n = n \}\n\}\)\(\);$/, 'a body without a final expression stays a body');
    assert.match(one({ type: 'javascript', value: 'x(' }).problems[0]!, /does not parse/);
  });

  it('if: the helpers it calls are defined; a structured condition becomes an expression', () => {
    const value = one({ type: 'if', value: "exists('#a') && vars.n > 1" }).actions[0]!.value!;
    assert.match(value, /const vars = args\.vars;/);
    assert.match(value, /const exists = /);
    assert.doesNotMatch(value, /const url = /);
    assert.deepEqual(one({ type: 'if', value: 'window.ok === true' }).actions, [{ type: 'if', value: 'window.ok === true' }]);
    assert.deepEqual(one({ type: 'if', conditionVar: '{$n}', conditionVarType: 'number', conditionOp: 'gt', conditionValue: '3' }).actions[0]!.value,
      '((l, r) => Number.isFinite(l) && Number.isFinite(r) && l > r)(Number(args.vars["n"]), Number("3"))');
    assert.equal(one({ type: 'if', conditionVar: 's', conditionOp: 'contains', conditionValue: 'ok' }).actions[0]!.value, 'String(args.vars["s"] ?? \'\').includes("ok")');
    assert.match(one({ type: 'if', value: 'block.output > 2' }).problems[0]!, /block\.output/);
  });

  it('names every action it cannot map, 1-based, with the reason', () => {
    const mapped = mapActions([
      { type: 'while', value: 'true' }, { type: 'end' }, { type: 'click', selector: '10, 20' }, { type: 'type', value: 'x' },
      { type: 'foreach', varName: 'rows' }, { type: 'javascript', value: 'use({$html})' }, { type: 'teleport' }, 'click',
    ]);
    assert.deepEqual(mapped.problems, [
      'action 1 (while): "while" has no taskloom equivalent',
      'action 3 (click): it acts at page coordinates (10, 20), which taskloom does not',
      'action 4 (type): it has no selector',
      "action 5 (foreach): it loops over a variable's list, which taskloom's foreach (over elements) does not",
      'action 6 (javascript): it uses {$html}, which taskloom does not have',
      'action 7 (teleport): unknown action type "teleport"',
      'action 8: not an object',
    ]);
  });
});

describe('replaced product: tasks', () => {
  it('maps the task fields: typed variables to values, the wait to a first action, cosmetic options to notes', () => {
    const { bundle, reports } = bundleFromProductExport([{
      id: 'p1', name: 'P', description: 'd', url: 'https://example.com/', mode: 'agent', wait: 2, rotateProxies: true, humanTyping: true,
      variables: { a: { type: 'number', value: '3' }, b: { type: 'boolean', value: 'true' }, c: { type: 'string', value: 7 }, d: 'plain' },
      actions: [{ type: 'click', selector: '#x' }], extractionScript: 'return $$data.html().length', last_opened: 1, folder: 'x',
    }], '2025-01-01T00:00:00.000Z');
    const [task] = bundle.tasks;
    assert.deepEqual([bundle.format, bundle.formatVersion], ['taskloom.tasks', 1]);
    assert.deepEqual(task!.variables, { a: 3, b: true, c: '7', d: 'plain' });
    assert.deepEqual(task!.actions, [{ type: 'wait', value: '2000' }, { type: 'click', selector: '#x' }]);
    assert.equal(task!.rotateProxies, true);
    assert.equal(task!.description, 'd');
    assert.match(task!.extractionScript!, /const \$\$data = \{ html: \(\) => document\.documentElement\.outerHTML/);
    assert.match(task!.extractionScript!, /\nreturn \$\$data\.html\(\)\.length\n/);
    assert.deepEqual(reports, [{ taskId: 'p1', name: 'P', notes: ['humanTyping is not kept', 'ignored: folder'] }]);
  });

  it('gives a task without id a new one; refuses the whole export with IMPORT_UNMAPPED when one task cannot be mapped', () => {
    assert.match(bundleFromProductExport([{ name: 'n', url: 'https://example.com/' }]).bundle.tasks[0]!.id, /^task_/);
    assert.throws(() => bundleFromProductExport([
      { name: 'ok', url: 'https://example.com/' },
      { name: 'odd', url: 'https://example.com/', mode: 'robot', selector: 'main' },
      { id: 'x', name: 'loop', url: '', actions: [{ type: 'repeat' }] },
    ]), (error: unknown) => {
      assert.ok(error instanceof TaskloomError);
      assert.deepEqual([error.code, error.statusCode], ['IMPORT_UNMAPPED', 422]);
      assert.equal(error.message, 'Nothing imported: 2 of 3 task(s) hold what taskloom cannot run as written'
        + ' | task 2 "odd" (id none): mode "robot" is not agent, scrape or headful; its selector "main" (the part of the page to keep) has no taskloom equivalent: read that part in the extraction script'
        + ' | task 3 "loop" (id x): it has no url; action 1 (repeat): "repeat" has no taskloom equivalent');
      return true;
    });
  });
});
