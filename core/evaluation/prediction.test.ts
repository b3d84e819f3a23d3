import { describe, expect, it } from 'vitest';
import { predictionText, predictRounds } from './prediction';
import { replayPartial } from './replay';
import { defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';
import { fourCriteria } from './test-setup';

// The rounds an evaluation still needs, projected from its convergence checks.

const taxonomy = fourCriteria();
const opening = [
  evaluator('problem', [
    ['alpha', 7, 0.5],
    ['beta', 6, 0.5],
  ]),
  evaluator('risk', [
    ['gamma', 6, 0.5],
    ['delta', 7, 0.5],
  ]),
];
/** A round in which the evaluator holds and every confidence is set to `confidence`. */
const round = (criterion: string, text: string, confidence: number, severity = 'MINOR', winner: 'EVALUATOR' | 'DRAW' = 'EVALUATOR') => [
  redteam('skeptic', [[criterion, severity, text]]),
  redteam('realist', []),
  redteam('first-principles', []),
  defense(),
  ruling(winner),
  synthesis([
    ['alpha', 7, confidence],
    ['beta', 6, confidence],
    ['gamma', 6, confidence],
    ['delta', 7, confidence],
  ]),
];
const at = (...lines: Parameters<typeof script>) => replayPartial(script(...lines), taxonomy).state;

describe('predictRounds', () => {
  it('before any round has finished: stability needs two, within the limit or up to it', () => {
    expect(predictRounds(at(header(), opening))).toEqual({
      more: 2,
      atLimit: false,
      left: 3,
      needs: [{ condition: 'stability', rounds: 2, reason: 'stability needs 2 stable rounds in a row and none has finished' }],
    });
    expect(predictRounds(at(header({ mode: 'quick' }), opening))).toMatchObject({ more: 1, atLimit: true, left: 1 });
  });

  it('projects the confidence shortfall on its trend: 0.2 short, then 0.1, is one more round', () => {
    const afterTwo = at(header(), opening, round('beta', 'Beta leans on one survey', 0.6), round('gamma', 'Gamma ignores winter', 0.7));
    const p = predictRounds(afterTwo);
    expect(p).toEqual({
      more: 1,
      atLimit: false,
      left: 1,
      needs: [{ condition: 'confidence', rounds: 1, reason: 'confidence is 0.1 short and closing 0.1 a round' }],
    });
    expect(predictionText(p as NonNullable<typeof p>)).toBe(
      'about 1 more round to convergence (confidence is 0.1 short and closing 0.1 a round)',
    );
    // After one round there is no trend yet: stability still needs its second stable round.
    expect(predictRounds(at(header(), opening, round('beta', 'Beta leans on one survey', 0.6)))?.needs).toEqual([
      { condition: 'stability', rounds: 1, reason: '1 stable round of the 2 stability needs' },
      { condition: 'confidence', rounds: 1, reason: 'confidence is 0.2 short; no trend yet' },
    ]);
  });

  it('an unresolved CRITICAL challenge never resolves: the limit decides', () => {
    const held = at(header(), opening, round('alpha', 'No customer has confirmed alpha', 0.9, 'CRITICAL', 'DRAW'));
    expect(predictRounds(held)).toMatchObject({
      more: 2,
      atLimit: true,
      needs: expect.arrayContaining([
        { condition: 'resolution', rounds: null, reason: 'CRITICAL challenge r1c1 is unresolved, and stays so' },
      ]),
    });
    expect(predictRounds(held)?.needs[0]?.condition).toBe('resolution');
  });

  it('says nothing once the lock is decided', () => {
    const locked = replayPartial(
      script(header({ mode: 'quick' }), opening, round('beta', 'Beta leans on one survey', 0.9).slice(0, 1), redteam('realist', []), defense(), ruling('EVALUATOR'), synthesis([['beta', 6, 0.9]]), narrative()),
      taxonomy,
    ).state;
    expect([locked.phase, predictRounds(locked)]).toEqual(['LOCKED', null]);
  });
});
