// The acceptance rule of a repair (layers/healing/decide.ts), on ranked candidates as the page gives them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS, decide, describeCandidates, type MatchCandidate } from '../../layers/healing/index.js';

const fingerprint = {
  tag: 'button', role: 'button', name: 'Sign in', text: 'Sign in', attributes: {}, classes: [], index: 1, siblings: 1,
  ancestors: [], landmarks: [], neighbours: [],
};
const c = (selector: string, score: number, extra: Partial<MatchCandidate> = {}): MatchCandidate => ({ selector, score, tag: 'button', text: selector, fingerprint, ...extra });

describe('healing: the acceptance rule', () => {
  it('takes the best candidate above the threshold and clearly ahead of the runner-up', () => {
    const decision = decide([c('#a', 0.8), c('#b', 0.6)]);
    assert.ok(decision.accepted);
    assert.equal(decision.candidate.selector, '#a');
    assert.equal(decision.runnerUp?.selector, '#b');
  });

  it('refuses a best candidate under the threshold, too close to the runner-up, or empty or generic', () => {
    const cases: [MatchCandidate[], RegExp][] = [
      [[c('#a', DEFAULT_THRESHOLDS.threshold - 0.01)], /under the threshold/],
      [[c('#a', 0.8), c('#b', 0.7)], /not clearly ahead of #b/],
      [[c('body', 0.9, { generic: 'the whole document' })], /is the whole document/],
      [[c('footer > a', 0.9, { generic: 'in the footer, which the target was not' })], /in the footer/],
      [[], /no visible element/],
    ];
    for (const [candidates, reason] of cases) {
      const decision = decide(candidates);
      assert.equal(decision.accepted, false);
      if (!decision.accepted) assert.match(decision.reason, reason);
    }
  });

  it('does not count the same target wrapped, nor an element that can never be taken, as a rival', () => {
    const wrapped = decide([c('#a', 0.8), c('div.wrap', 0.78, { sameTarget: true }), c('#b', 0.5)]);
    assert.ok(wrapped.accepted);
    assert.equal(wrapped.runnerUp?.selector, '#b');
    const footer = decide([c('#a', 0.8), c('footer > button', 0.75, { generic: 'in the footer, which the target was not' })]);
    assert.ok(footer.accepted);
  });

  it('a task threshold raises the bar', () => {
    assert.equal(decide([c('#a', 0.7)], { ...DEFAULT_THRESHOLDS, threshold: 0.75 }).accepted, false);
  });

  it('names the candidates with their scores', () => {
    assert.equal(describeCandidates([c('#a', 0.61), c('#b', 0.5)]), '#a "#a" (0.61), #b "#b" (0.5)');
    assert.equal(describeCandidates([]), 'none');
  });
});
