import { describe, expect, it } from 'vitest';
import { askInWords, challengeWords } from './ask-words';
import { replayPartial } from './replay';
import { defense, evaluator, header, redteam, script } from './script-builder';
import { fourCriteria } from './test-setup';

// What the live view says an evaluation waits for: never a bare "defence r1c1".

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
const waiting = (...lines: Parameters<typeof script>) => {
  const { state } = replayPartial(script(...lines), taxonomy);
  return state.awaiting.map((a) => askInWords(a, state));
};

describe('askInWords', () => {
  it('names the evaluators by category while the first scores are out', () => {
    const names = taxonomy.categories.map((c) => c.name);
    expect(waiting(header())).toEqual(names.map((n) => `the ${n} evaluator’s first scores`));
  });

  it('says whose defence of which criterion, against which red-teamer’s challenge, and then whose ruling', () => {
    const raised = [
      header(),
      opening,
      redteam('skeptic', [['beta', 'MAJOR', 'Nobody asked for this']]),
      redteam('realist', []),
      redteam('first-principles', []),
    ];
    const problem = taxonomy.categories.find((c) => c.id === 'problem')?.name;
    const beta = taxonomy.criteria.find((c) => c.id === 'beta')?.name;
    expect(waiting(...raised)).toEqual([
      `the ${problem} evaluator’s defence of “${beta}” against the skeptic red-teamer’s challenge 1 of round 1`,
    ]);
    expect(waiting(...raised, defense())).toEqual([
      `the arbiter’s ruling on “${beta}”: the skeptic red-teamer’s challenge 1 of round 1`,
    ]);
  });

  it('reads a challenge id as words, and keeps an id it does not know', () => {
    expect(challengeWords('r2c13')).toBe('challenge 13 of round 2');
    expect(challengeWords('odd')).toBe('challenge odd');
  });
});
