import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillTemplate, fillValue, lookup, type LoopScope, type TemplateScope } from '../../plugins/runs/runner/template.js';

const NOW = new Date('2030-01-02T03:04:05.000Z');
const scope = (variables: Record<string, unknown>, loop: LoopScope | null = null): TemplateScope => ({ variables, loop, now: NOW });
const outer: LoopScope = { index: 2, number: 3, count: 4, text: 'row three', selector: '#t > tr:nth-of-type(3)', parent: null };
const inner: LoopScope = { index: 0, number: 1, count: 2, text: 'cell', selector: '#t > tr:nth-of-type(3) > td:nth-of-type(1)', parent: outer };

describe('runner templates', () => {
  it('fills strings as they are and other values JSON-encoded', () => {
    const vars = { name: 'Ada', n: 3, ok: false, none: null, list: [1, 'two'], obj: { a: 1 } };
    const filled = fillTemplate('{$name}|{$n}|{$ok}|{$none}|{$list}|{$obj}', scope(vars));
    assert.deepEqual(filled, { value: 'Ada|3|false|null|[1,"two"]|{"a":1}', unknown: [] });
  });

  it('walks nested paths, array items by number, and prefers a variable named with the dots', () => {
    const vars = { user: { name: 'Ada', tags: ['x', 'y'], address: { city: 'Paris' } }, 'user.name': 'literal' };
    assert.equal(fillTemplate('{$user.address.city} {$user.tags.1}', scope(vars)).value, 'Paris y');
    assert.equal(fillTemplate('{$user.name}', scope(vars)).value, 'literal');
    assert.equal(fillTemplate('{$user.name}', scope({ user: { name: 'Ada' } })).value, 'Ada');
  });

  it('leaves unknown names as written and reports each once', () => {
    const filled = fillTemplate('{$missing} {$user.nope} {$missing} {$user.name.deeper} {$proto.constructor}', scope({ user: { name: 'Ada' }, proto: {} }));
    assert.equal(filled.value, '{$missing} {$user.nope} {$missing} {$user.name.deeper} {$proto.constructor}');
    assert.deepEqual(filled.unknown, ['missing', 'user.nope', 'user.name.deeper', 'proto.constructor']);
  });

  it('is not fooled by text that only looks like a placeholder', () => {
    assert.deepEqual(fillTemplate('{name} $name {$ name} {$} {$a b}', scope({ name: 'x' })), { value: '{name} $name {$ name} {$} {$a b}', unknown: [] });
  });

  it('fills {$now} with the ISO time, over a variable of that name', () => {
    assert.equal(fillTemplate('at {$now}', scope({ now: 'mine' })).value, 'at 2030-01-02T03:04:05.000Z');
  });

  it('gives loop variables inside a loop, the innermost first, the outer one through parent', () => {
    const filled = fillTemplate('{$loop.index}/{$loop.number}/{$loop.count} {$loop.text} {$loop.parent.number}:{$loop.parent.text}', scope({}, inner));
    assert.equal(filled.value, '0/1/2 cell 3:row three');
    assert.equal(fillTemplate('{$loop.selector} .x', scope({}, outer)).value, '#t > tr:nth-of-type(3) .x');
  });

  it('outside a loop, loop names are ordinary variables (unknown when absent)', () => {
    assert.deepEqual(fillTemplate('{$loop.index}', scope({})).unknown, ['loop.index']);
    assert.equal(fillTemplate('{$loop.index}', scope({ loop: { index: 'mine' } })).value, 'mine');
    assert.equal(fillTemplate('{$loop.index}', scope({ loop: { index: 'mine' } }, outer)).value, '2', 'a running loop shadows it');
  });

  it('fillValue keeps the type of a whole-placeholder value and fills text otherwise', () => {
    const vars = { obj: { a: [1] }, n: 7 };
    assert.deepEqual(fillValue('{$obj}', scope(vars)), { value: { a: [1] }, unknown: [] });
    assert.deepEqual(fillValue('{$n}', scope(vars)), { value: 7, unknown: [] });
    assert.deepEqual(fillValue('n={$n}', scope(vars)), { value: 'n=7', unknown: [] });
    assert.deepEqual(fillValue('{$loop.number}', scope(vars, outer)), { value: 3, unknown: [] });
    assert.deepEqual(fillValue('{$gone}', scope(vars)), { value: '{$gone}', unknown: ['gone'] });
  });

  it('lookup treats an undefined value as unknown', () => {
    assert.equal(lookup('x', scope({ x: undefined })), undefined);
    assert.equal(fillTemplate('{$x}', scope({ x: undefined })).unknown[0], 'x');
  });
});
