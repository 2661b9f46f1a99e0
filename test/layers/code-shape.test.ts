// How user code is told apart (layers/page-scripts/code-shape.ts): a lone expression gains its `return`, a body
// runs as written; code written for eval gets a `return` before its last expression statement.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asFunctionBody, evalAsBody, loneExpressionEnd } from '../../layers/page-scripts/code-shape.js';

const returned = (expression: string) => `return (\n${expression}\n);`;

describe('code shape', () => {
  it('a lone expression, with or without a final semicolon and comments, becomes its return', () => {
    assert.equal(asFunctionBody('document.title'), returned('document.title'));
    assert.equal(asFunctionBody('document.title;'), returned('document.title'));
    assert.equal(asFunctionBody('document.title // the tab\'s title'), returned('document.title'));
    assert.equal(asFunctionBody('// the title\ndocument.title /* then */ ;\n'), returned('// the title\ndocument.title'));
    assert.equal(asFunctionBody('await fetch(location.href).then((r) => r.status)'), returned('await fetch(location.href).then((r) => r.status)'));
    assert.equal(asFunctionBody('(1 + 2)'), returned('(1 + 2)'), 'parentheses are kept whole');
    assert.equal(asFunctionBody('({ title: document.title })'), returned('({ title: document.title })'));
  });

  it('an object literal is an object, not a block', () => {
    assert.equal(asFunctionBody('{ a: 1, b: [2] }'), returned('{ a: 1, b: [2] }'));
  });

  it('a body runs as written: return, declarations, several statements, nothing, or code that does not parse', () => {
    for (const body of ['return document.title', 'const a = 1; return a', 'a; b', 'document.title;;', '', '// nothing\n', 'if (x) { return 1 }', 'x(']) {
      assert.equal(asFunctionBody(body), body, body);
    }
    assert.equal(loneExpressionEnd('a; b'), -1);
  });

  it('code written for eval: its last expression statement is returned, unless it returns already', () => {
    assert.equal(evalAsBody('a(); b'), 'a(); return b');
    assert.equal(evalAsBody('var x = 1;\nx + 1;'), 'var x = 1;\nreturn x + 1;');
    assert.equal(evalAsBody('function f() { return 2 }\nf()'), 'function f() { return 2 }\nreturn f()', 'a return inside a function does not count');
    assert.equal(evalAsBody('if (a) { return 1 }\nb'), 'if (a) { return 1 }\nb');
    assert.equal(evalAsBody('for (;;) {}'), 'for (;;) {}');
    assert.equal(evalAsBody('document.title'), 'document.title', 'a lone expression is left to asFunctionBody');
    assert.equal(evalAsBody('x('), undefined);
  });
});
