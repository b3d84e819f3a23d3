import { describe, expect, it } from 'vitest';
import { challengeKeywords, findRepeat, proposeTargets, selectChallenges, similarity } from './challenges';
import type { ChallengeRecord } from './state';
import { fourCriteria, stateWithScores } from './test-setup';

const earlier = (id: string, criterion: string, challenge: string): ChallengeRecord => ({
  id,
  round: 1,
  persona: 'skeptic',
  criterion,
  category: 'problem',
  severity: 'MAJOR',
  challenge,
  defense: 'd',
  ruling: { winner: 'EVALUATOR', scoreAdjustment: 0, firstPrinciplesBonus: false, fallacies: [], reasoning: 'r' },
  scoreBefore: 7,
  scoreAfter: 7,
  resolved: true,
  resolution: null,
});

describe('repeat detection', () => {
  it('compares normalized keywords', () => {
    expect(challengeKeywords('Users will not pay for these tools')).toEqual(['user', 'tool']);
    // {user, tool} against {user, never, tool}: 2 shared of 3 → 0.667
    expect(similarity('Users will not pay for this tool', 'The user would never pay for such a tool')).toBeCloseTo(
      2 / 3,
      10,
    );
  });

  it('counts near-identical text on the same criterion, and exact repeats of an earlier round on any', () => {
    const known = [
      { id: 'r1c1', criterion: 'alpha', challenge: 'Users will not pay for this tool', earlierRound: true },
      { id: 'r2c1', criterion: 'beta', challenge: 'Hiring will take longer than planned', earlierRound: false },
    ];
    const t = 0.6;
    expect(
      findRepeat({ criterion: 'alpha', challenge: 'The user would never pay for such a tool' }, known, t)?.id,
    ).toBe('r1c1');
    // the same words on another criterion are a different challenge …
    expect(
      findRepeat({ criterion: 'gamma', challenge: 'The user would never pay for such a tool' }, known, t),
    ).toBeNull();
    // … unless it is word for word an earlier round's challenge
    expect(findRepeat({ criterion: 'gamma', challenge: 'users will NOT pay for this tool!' }, known, t)?.id).toBe(
      'r1c1',
    );
    // exact text from this round on another criterion is not a repeat
    expect(findRepeat({ criterion: 'gamma', challenge: 'Hiring will take longer than planned' }, known, t)).toBeNull();
    // below the threshold: {hiring, take, longer, planned} vs {hiring, cost, more}: 1 of 6
    expect(findRepeat({ criterion: 'beta', challenge: 'Hiring will cost more' }, known, t)).toBeNull();
  });
});

describe('targets', () => {
  it('proposes high scores and low confidences first, untested criteria before tested ones', () => {
    const state = stateWithScores(fourCriteria(), {
      alpha: [9, 0.8], // 0.9 + 0.2 = 1.1, minus 0.1 for one exchange = 1.0
      beta: [5, 0.4], // 0.5 + 0.6 = 1.1
      gamma: [6, 0.7], // 0.6 + 0.3 = 0.9
      delta: [3, 0.9], // 0.3 + 0.1 = 0.4
    });
    expect(proposeTargets(state, 4)).toEqual(['alpha', 'beta', 'gamma', 'delta']); // tie 1.1: taxonomy order
    state.challenges.push(earlier('r1c1', 'alpha', 'x'));
    expect(proposeTargets(state, 3)).toEqual(['beta', 'alpha', 'gamma']);
  });
});

describe('selecting the round’s challenges', () => {
  const state = stateWithScores(fourCriteria(), { alpha: [8, 0.6], beta: [6, 0.6], gamma: [6, 0.6], delta: [5, 0.6] });
  state.challenges.push(earlier('r1c1', 'alpha', 'Users will not pay for this tool'));
  state.config.challengesPerRound = 3;
  const c = (criterion: string, challenge: string) => ({ criterion, severity: 'MAJOR' as const, challenge });

  it('takes turns between personas, drops repeats, and caps the round', () => {
    const selection = selectChallenges(
      state,
      2,
      [
        {
          persona: 'skeptic',
          challenges: [
            c('alpha', 'The user would never pay for such a tool'),
            c('beta', 'The beta claim has no source'),
            c('gamma', 'Gamma ignores seasonality'),
          ],
        },
        {
          persona: 'realist',
          challenges: [c('delta', 'Delta needs a second hire'), c('beta', 'No source backs the beta claim')],
        },
      ],
      null,
    );
    expect(selection).toEqual({
      raised: 5,
      // order of turns: skeptic 1, realist 1, skeptic 2, realist 2, skeptic 3
      accepted: [
        { persona: 'realist', ...c('delta', 'Delta needs a second hire') },
        { persona: 'skeptic', ...c('beta', 'The beta claim has no source') },
        { persona: 'skeptic', ...c('gamma', 'Gamma ignores seasonality') },
      ],
      dropped: [
        {
          persona: 'skeptic',
          ...c('alpha', 'The user would never pay for such a tool'),
          reason: 'repeat',
          repeatOf: 'r1c1',
        },
        { persona: 'realist', ...c('beta', 'No source backs the beta claim'), reason: 'repeat', repeatOf: 'r2c2' },
      ],
    });
  });

  it('counts challenges beyond the cap, and drops everything off a disputed round’s focus', () => {
    const capped = selectChallenges(
      state,
      2,
      [
        {
          persona: 'skeptic',
          challenges: [c('beta', 'one'), c('gamma', 'two'), c('delta', 'three'), c('beta', 'four')],
        },
      ],
      null,
    );
    expect(capped.dropped).toEqual([{ persona: 'skeptic', ...c('beta', 'four'), reason: 'over_cap', repeatOf: null }]);
    const focused = selectChallenges(
      state,
      2,
      [{ persona: 'skeptic', challenges: [c('beta', 'one'), c('gamma', 'two')] }],
      'gamma',
    );
    expect(focused.accepted).toEqual([{ persona: 'skeptic', ...c('gamma', 'two') }]);
    expect(focused.dropped).toEqual([
      { persona: 'skeptic', ...c('beta', 'one'), reason: 'off_target', repeatOf: null },
    ]);
  });
});
