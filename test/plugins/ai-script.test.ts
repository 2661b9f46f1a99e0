import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripFences } from '../../plugins/ai/answer.js';
import { acceptScript, MAX_SCRIPT_CHARS, scriptUserPrompt } from '../../plugins/ai/script.js';

describe('stripFences', () => {
  it('takes the first fenced block, whatever its language tag or prose around it', () => {
    assert.equal(stripFences('```javascript\nreturn 1;\n```'), 'return 1;');
    assert.equal(stripFences('Sure!\n```js\nreturn 2;\n```\nand\n```\nreturn 3;\n```'), 'return 2;');
    assert.equal(stripFences('~~~\nreturn 4;\n~~~'), 'return 4;');
    assert.equal(stripFences('```return 5;```'), 'return 5;');
    assert.equal(stripFences('  return 6;  '), 'return 6;');
    assert.equal(stripFences('```js\nreturn 7; // cut short'), 'return 7; // cut short');
  });
});

describe('acceptScript', () => {
  it('takes a function body that returns something, awaiting at the top level if it likes', () => {
    const body = 'const rows = [...document.querySelectorAll("tr")];\nawait new Promise((r) => setTimeout(r, 10));\nreturn rows.map((r) => r.textContent);';
    assert.deepEqual(acceptScript(`\`\`\`js\n${body}\n\`\`\``), { ok: true, value: body });
    assert.equal(acceptScript('if (!document.title) { return null; } else { return document.title; }').ok, true);
  });

  it('takes the body out of a lone function answered in its place', () => {
    assert.deepEqual(acceptScript('async () => {\n  return document.title;\n}'), { ok: true, value: 'return document.title;' });
    assert.deepEqual(acceptScript('async function extract() { return 1; }'), { ok: true, value: 'return 1;' });
  });

  it('refuses prose, broken code, code that returns nothing and endless answers, saying why', () => {
    const refusals: [string, RegExp][] = [
      ['I cannot access the page.', /not a JavaScript function body/],
      ['return document.querySelectorAll(', /not a JavaScript function body/],
      ['', /empty/],
      ['document.title;', /returns nothing/],
      ['const f = () => { return 1; };', /returns nothing/],
      [`return "${'x'.repeat(MAX_SCRIPT_CHARS)}";`, /longer than/],
    ];
    for (const [answer, reason] of refusals) {
      const verdict = acceptScript(answer);
      assert.equal(verdict.ok, false, answer.slice(0, 40));
      if (!verdict.ok) assert.match(verdict.reason, reason);
    }
  });

  it('never runs the script', () => {
    const flag = globalThis as { ranByAcceptScript?: boolean };
    acceptScript('globalThis.ranByAcceptScript = true; return 1;');
    assert.equal(flag.ranByAcceptScript, undefined);
  });

  it('hands the description to the model', () => {
    assert.equal(scriptUserPrompt('  prices of every product '), 'Data to extract: prices of every product');
  });
});
