import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '../../kernel/contracts/records.js';
import { ActionError } from '../../plugins/runs/runner/index.js';
import { RUNNER_ACTION_TYPES, parseProgram, type ProgramNode } from '../../plugins/runs/runner/program.js';
import { ACTION_TYPES } from '../../plugins/tasks/schemas.js';

const a = (type: string, extra: Partial<Action> = {}): Action => ({ type, ...extra });
const cond = (value = 'true') => a('if', { value });
const loop = (selector = '.x') => a('foreach', { selector });
const stop = () => a('stop');

/** The tree as `type@index` labels, blocks as nested arrays. */
function shape(nodes: ProgramNode[]): unknown[] {
  return nodes.map((node) => {
    if (node.kind === 'action') return `${node.action.type}@${node.index}`;
    if (node.kind === 'if') return { [`if@${node.index}-${node.endIndex}`]: [shape(node.then), shape(node.otherwise)] };
    return { [`foreach@${node.index}-${node.endIndex}`]: shape(node.body) };
  });
}

function failsAt(actions: Action[], index: number, message: RegExp): void {
  assert.throws(() => parseProgram(actions), (error: unknown) => {
    assert.ok(error instanceof ActionError, `an ActionError, not ${String(error)}`);
    assert.equal(error.actionIndex, index);
    assert.match(error.message, new RegExp(`^Action ${index + 1} \\(`), 'the message counts actions from 1');
    assert.match(error.message, message);
    return true;
  });
}

describe('runner program', () => {
  it('knows exactly the action types the tasks plugin accepts', () => {
    assert.deepEqual([...RUNNER_ACTION_TYPES].sort(), [...ACTION_TYPES].sort());
  });

  it('builds if/else/end and nested foreach blocks', () => {
    const program = parseProgram([
      stop(), cond(), stop(), a('else'), loop(), loop(), stop(), a('end'), a('end'), a('end'), stop(),
    ]);
    assert.deepEqual(shape(program), [
      'stop@0',
      { 'if@1-9': [['stop@2'], [{ 'foreach@4-8': [{ 'foreach@5-7': ['stop@6'] }] }]] },
      'stop@10',
    ]);
  });

  it('accepts an empty list and an if without else', () => {
    assert.deepEqual(parseProgram([]), []);
    assert.deepEqual(shape(parseProgram([cond(), a('end')])), [{ 'if@0-1': [[], []] }]);
  });

  it('refuses else and end without an opener', () => {
    failsAt([stop(), a('else')], 1, /"else" without an open "if"/);
    failsAt([cond(), a('end'), a('end')], 2, /"end" without an open/);
  });

  it('refuses an else in a foreach and a second else', () => {
    failsAt([loop(), a('else'), a('end')], 1, /inside the "foreach" at action 1 needs/);
    failsAt([cond(), a('else'), a('else'), a('end')], 2, /second "else" for the "if" at action 1$/);
  });

  it('names the innermost opener left without its end', () => {
    failsAt([cond(), stop(), a('end'), loop()], 3, /"foreach" has no matching "end"/);
    failsAt([cond(), loop(), a('end')], 0, /"if" has no matching "end"/);
  });

  it('treats a disabled else or end as structure all the same', () => {
    assert.deepEqual(shape(parseProgram([cond(), a('else', { disabled: true }), a('end', { disabled: true })])), [{ 'if@0-2': [[], []] }]);
  });

  it('refuses unknown types and missing required fields', () => {
    failsAt([stop(), a('teleport')], 1, /unknown action type "teleport"/);
    for (const [type, field] of [['navigate', 'value'], ['click', 'selector'], ['hover', 'selector'], ['type', 'selector'],
      ['press', 'key'], ['wait', 'value'], ['wait_selector', 'selector'], ['javascript', 'value'], ['set', 'varName'],
      ['if', 'value'], ['foreach', 'selector']] as const) {
      const opensBlock = type === 'if' || type === 'foreach';
      failsAt(opensBlock ? [a(type), a('end')] : [a(type)], 0, new RegExp(`"${type}" needs a ${field}`));
    }
  });

  it('does not check actions that cannot run: disabled ones, or inside a disabled block', () => {
    assert.doesNotThrow(() => parseProgram([a('click', { disabled: true }), a('foreach', { disabled: true }), a('set'), a('end')]));
    failsAt([a('if', { value: 'x', disabled: true }), a('end'), a('click')], 2, /"click" needs a selector/);
  });

  it('needs nothing more for scroll, screenshot, stop', () => {
    assert.equal(parseProgram([a('scroll'), a('screenshot'), stop()]).length, 3);
  });
});
