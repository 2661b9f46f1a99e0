// The one helper that writes action numbers for people: from 1, while the API's actionIndex counts from 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionLabel, actionNumber, capitalActionLabel, runErrorText } from '../../layers/action-label/action-label.js';

describe('action labels', () => {
  it('counts from 1 and names the type when given', () => {
    assert.equal(actionNumber(0), 1);
    assert.equal(actionLabel(1, 'click'), 'action 2 (click)');
    assert.equal(actionLabel(9), 'action 10');
    assert.equal(capitalActionLabel(1, 'click'), 'Action 2 (click)');
  });

  it('writes a run error once: as the runner worded it, or with its action put in front', () => {
    assert.equal(runErrorText({ message: 'Action 2 (click): Timed out', actionIndex: 1 }), 'Action 2 (click): Timed out');
    assert.equal(runErrorText({ message: 'selector #x not found', actionIndex: 1 }), 'Action 2: selector #x not found');
    assert.equal(runErrorText({ message: 'Action 20 (click): late', actionIndex: 1 }), 'Action 2: Action 20 (click): late', 'action 20 is not action 2');
    assert.equal(runErrorText({ message: 'The run did not finish within 5 ms' }), 'The run did not finish within 5 ms');
  });
});
