// The task generator's reading of a provider's answer (plugins/ai/task-proposal.ts): every action type it may
// keep, the fields each needs, and the selectors checked on the live page (a drag's target too).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProposal, PROMPT_ACTIONS, SELECTOR_TYPES, selectorsToCheck } from '../../plugins/ai/task-proposal.js';

describe('task proposals', () => {
  it('keeps the later action types with their fields, fenced or not', () => {
    assert.deepEqual(parseProposal('{"type":"select","selector":"#fruit","value":"Banana"}'),
      { done: false, action: { type: 'select', selector: '#fruit', value: 'Banana' } });
    assert.deepEqual(parseProposal('```json\n{"type":"drag_and_drop","selector":"#card","target":"#done","extra":1}\n```'),
      { done: false, action: { type: 'drag_and_drop', selector: '#card', target: '#done' } });
    for (const type of ['check', 'uncheck', 'double_click', 'right_click', 'hover', 'get_content']) {
      assert.deepEqual(parseProposal(JSON.stringify({ type, selector: '#x' })), { done: false, action: { type, selector: '#x' } });
    }
    assert.deepEqual(parseProposal('{"type":"wait_navigation"}'), { done: false, action: { type: 'wait_navigation' } });
    assert.deepEqual(parseProposal('{"type":"done"}'), { done: true });
  });

  it('says why an answer is not an action', () => {
    assert.equal(parseProposal('click it'), 'not a JSON object');
    assert.equal(parseProposal('{"selector":"#a"}'), 'no action type');
    assert.equal(parseProposal('{"type":"javascript","value":"1"}'), 'the action type javascript is not one a generated task uses');
    assert.equal(parseProposal('{"type":"check"}'), 'a check needs a selector');
    assert.equal(parseProposal('{"type":"select","selector":"#fruit"}'), 'a select needs a value');
    assert.equal(parseProposal('{"type":"drag_and_drop","selector":"#card"}'), 'a drag_and_drop needs a target');
    assert.equal(parseProposal('{"type":"press","selector":"#q"}'), 'a press needs a key');
  });

  it('checks a drag\'s target as well as its selector, and names every kept type in the prompt', () => {
    assert.deepEqual(selectorsToCheck({ type: 'drag_and_drop', selector: '#card', target: '#done' }), ['#card', '#done']);
    assert.deepEqual(selectorsToCheck({ type: 'click', selector: '#a', target: '#ignored' }), ['#a']);
    assert.deepEqual(selectorsToCheck({ type: 'navigate', value: 'https://example.com/' }), []);
    for (const type of [...SELECTOR_TYPES, 'navigate', 'wait_navigation']) assert.ok(PROMPT_ACTIONS.includes(`"type":"${type}"`), type);
  });
});
