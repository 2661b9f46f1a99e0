import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ATTRIBUTE_CHARS, MAX_TEXT_CHARS, reduceHtml } from '../../plugins/ai/selector/reduce-html.js';

const reduce = (html: string) => reduceHtml(html, 100_000);

describe('reduceHtml', () => {
  it('drops the head, scripts, styles, noscript, templates and comments', () => {
    const html = '<html><head><title>T</title><style>.a{}</style><meta charset="utf-8"></head><body><!-- note -->' +
      '<script>alert(1)</script><noscript>enable js</noscript><template><p>later</p></template><p>kept</p></body></html>';
    assert.equal(reduce(html), '<html><body><p>kept</p></body></html>');
  });

  it('keeps an SVG element with its label but none of its drawing', () => {
    assert.equal(reduce('<button><svg aria-label="Close" viewBox="0 0 24 24"><g><path d="M1 1L2 2"/></g><title>x</title></svg></button>'),
      '<button><svg aria-label="Close"></svg></button>');
  });

  it('keeps the attributes a selector can use and drops the others', () => {
    const html = '<input id="q" class="search big" name="q" type="text" placeholder="Search" aria-label="Search site" ' +
      'data-testid="search" style="color:red" onclick="go()" data-reactid="7" tabindex="1" autocomplete="off" required>';
    assert.equal(reduce(html), '<input id="q" class="search big" name="q" type="text" placeholder="Search" aria-label="Search site" data-testid="search">');
  });

  it('drops long attribute values and long generated class names, keeping a few short classes', () => {
    const long = 'x'.repeat(MAX_ATTRIBUTE_CHARS + 1);
    const classes = `a b c d e f g h ${'css-'.padEnd(50, 'z')}`;
    assert.equal(reduce(`<a href="/${long}" title="${long}" class="${classes}">go</a>`), '<a class="a b c d e f">go</a>');
  });

  it('keeps value only where it labels the element, never a hidden token or a password', () => {
    const html = '<input type="hidden" name="csrf" value="tok123"><input type="password" value="hunter2">' +
      '<input type="submit" value="Send"><option value="fr">France</option>';
    assert.equal(reduce(html), '<input type="hidden" name="csrf"><input type="password"><input type="submit" value="Send"><option value="fr">France</option>');
  });

  it('collapses whitespace, cuts long text and escapes what it writes', () => {
    const text = 'y'.repeat(MAX_TEXT_CHARS + 50);
    assert.equal(reduce(`<p>  a \n\t b  </p><p>${text}</p><p title='say "hi"'>1 &lt; 2 &amp; 3</p>`),
      `<p>a b</p><p>${'y'.repeat(MAX_TEXT_CHARS)}…</p><p title="say &quot;hi&quot;">1 &lt; 2 &amp; 3</p>`);
  });

  it('stays within the budget, marking the cut', () => {
    const html = `<ul>${Array.from({ length: 500 }, (_, i) => `<li id="item-${i}">Item ${i}</li>`).join('')}</ul>`;
    for (const budget of [100, 1000, 5000]) {
      const reduced = reduceHtml(html, budget);
      assert.ok(reduced.length <= budget, `${reduced.length} > ${budget}`);
      assert.ok(reduced.endsWith('<!-- truncated -->'));
      assert.ok(reduced.startsWith('<ul><li id="item-0">Item 0</li>'));
    }
    assert.ok(!reduceHtml('<p>short</p>', 1000).includes('truncated'));
  });

  it('copes with broken markup: unclosed elements, stray end tags, uppercase names', () => {
    assert.equal(reduce('<DIV ID="a"><P>one<P>two</span></DIV>'), '<div id="a"><p>one</p><p>two</p></div>');
  });
});
