import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptAnswer, acceptSelectorOn } from '../../plugins/ai/selector/accept-selector.js';
import { cleanSelector, MAX_SELECTOR_CHARS } from '../../plugins/ai/selector/clean-selector.js';
import { SELECTOR_SYSTEM_PROMPT, selectorUserPrompt } from '../../plugins/ai/selector/prompt.js';

describe('cleanSelector', () => {
  it('takes one selector out of the forms models answer in', () => {
    const answers: [string, string][] = [
      ['#login', '#login'],
      ['  button[type="submit"]  \n', 'button[type="submit"]'],
      ['```css\nform#login > button.primary\n```', 'form#login > button.primary'],
      ['Here is the selector:\n```\n#email\n```\nIt targets the email field.', '#email'],
      ['The selector is `input[name="q"]`.', 'input[name="q"]'],
      ['Selector: .nav a[href="/pricing"]', '.nav a[href="/pricing"]'],
      ['CSS selector - #main', '#main'],
      ['"#quoted"', '#quoted'],
      ["'.single'", '.single'],
      ['{"selector": "#from-json"}', '#from-json'],
      ['#first\n#second', '#first'],
      ['div.item:nth-child(2);', 'div.item:nth-child(2)'],
      ['selector-list > li', 'selector-list > li'],
    ];
    for (const [answer, selector] of answers) assert.equal(cleanSelector(answer), selector, answer);
  });

  it('finds nothing in an empty or endless answer', () => {
    for (const answer of ['', '   ', '```\n```', '""', 'a'.repeat(MAX_SELECTOR_CHARS + 1)]) {
      assert.equal(cleanSelector(answer), undefined, JSON.stringify(answer.slice(0, 20)));
    }
  });
});

describe('accepting a selector', () => {
  const page = { matches: async (selector: string) => (selector === '#ok' ? 2 : 0) };

  it('takes a selector that matches at least one element of the page and refuses one that matches none', async () => {
    const accept = acceptSelectorOn(page);
    assert.deepEqual(await accept('#ok'), { ok: true, value: '#ok' });
    assert.deepEqual(await accept('#missing'), { ok: false, reason: 'selector #missing matches no element of the page' });
  });

  it('cleans the answer before asking the page, refusing an answer without a selector', async () => {
    const accept = acceptAnswer(acceptSelectorOn(page));
    assert.deepEqual(await accept('Use `#ok`.'), { ok: true, value: '#ok' });
    assert.deepEqual(await accept('  '), { ok: false, reason: 'the answer holds no CSS selector' });
  });

  it('lets an error of the page itself through, to stop the chain', async () => {
    const accept = acceptSelectorOn({ matches: async () => { throw new Error('Target closed'); } });
    await assert.rejects(accept('#ok'), /Target closed/);
  });
});

describe('selector prompt', () => {
  it('asks for exactly one CSS selector and gives the element, the page and its HTML', () => {
    assert.match(SELECTOR_SYSTEM_PROMPT, /exactly one CSS selector/);
    assert.equal(selectorUserPrompt(' the button ', 'https://a.example', '<b>x</b>'), 'Element: the button\nPage: https://a.example\n\nHTML:\n<b>x</b>');
  });
});
