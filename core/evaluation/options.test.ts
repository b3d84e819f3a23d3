import { describe, expect, it } from 'vitest';
import { renderSynthesisMd } from './markdown';
import { checkOptions, configFromOptions, type EvaluationOptions, optionsFromPairs } from './options';
import { replayPartial, runEvaluationReplay } from './replay';
import { defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';
import { fourCriteria } from './test-setup';

// The debate options a researcher sets, replayed: each one changes what the protocol does with the
// same answers, and the locked document records them.

const taxonomy = fourCriteria();
const withOptions = (options: EvaluationOptions) => header({ config: configFromOptions(options) });

/** Every criterion at confidence 0.65: above 0.5 + 0.1 for the critical ones, below the default 0.7. */
const settle = (insights: string[] = []) =>
  synthesis(
    [
      ['alpha', 7, 0.65],
      ['beta', 6, 0.65],
      ['gamma', 6, 0.65],
      ['delta', 7, 0.65],
    ],
    insights,
  );
const quietRound = (criterion: string, text: string) => [
  redteam('skeptic', [[criterion, 'MINOR', text]]),
  redteam('realist', []),
  redteam('first-principles', []),
  defense(),
  ruling('EVALUATOR'),
  settle(),
];
const opening = [
  evaluator('problem', [
    ['alpha', 7, 0.6],
    ['beta', 6, 0.6],
  ]),
  evaluator('risk', [
    ['gamma', 6, 0.6],
    ['delta', 7, 0.6],
  ]),
];
const twoQuietRounds = [
  ...opening,
  ...quietRound('beta', 'Beta leans on a single survey'),
  ...quietRound('gamma', 'Gamma ignores the winter months'),
];

describe('minConfidence', () => {
  it('decides the lock: at 0.5 two stable rounds at 0.65 converge; at the default 0.7 the third round runs', () => {
    const low = runEvaluationReplay(script(withOptions({ minConfidence: 0.5 }), twoQuietRounds, narrative()), taxonomy);
    const usual = runEvaluationReplay(
      script(header(), twoQuietRounds, quietRound('delta', 'Delta’s supplier could stop'), narrative()),
      taxonomy,
    );
    expect([low.lockReason, low.rounds, low.convergence.conditions.confidence.met]).toEqual(['CONVERGENCE', 2, true]);
    expect([usual.lockReason, usual.rounds, usual.convergence.conditions.confidence.met]).toEqual([
      'MAX_ROUNDS',
      3,
      false,
    ]);
    // The critical criteria keep a bar a tenth higher.
    expect(low.config.confidence).toEqual({ minimum: 0.5, criticalMinimum: 0.6 });
  });
});

describe('arbiter and adjustmentRange', () => {
  /** Two red-team wins of −2 on alpha in one round, both ruled. */
  const twoHits = (options: EvaluationOptions) =>
    script(
      withOptions(options),
      opening,
      redteam('skeptic', [['alpha', 'MAJOR', 'No customer has confirmed alpha']]),
      redteam('realist', [['alpha', 'MAJOR', 'The alpha pilot had three users, all friends']]),
      redteam('first-principles', []),
      defense(),
      defense(),
      ruling('RED_TEAM', -2),
      ruling('RED_TEAM', -2),
    );
  const afterRulings = (options: EvaluationOptions) => {
    const { state } = replayPartial(twoHits(options), taxonomy);
    return {
      alpha: state.scores.alpha?.score,
      moves: state.challenges.map((c) => [c.id, c.scoreBefore, c.scoreAfter, c.resolved]),
    };
  };

  it('active moves the score after each exchange; passive once at the round’s end, within ±range', () => {
    expect({
      active: afterRulings({}),
      passive: afterRulings({ arbiter: 'passive' }),
      passiveRange3: afterRulings({ arbiter: 'passive', adjustmentRange: 3 }),
    }).toEqual({
      // 7 → 5 → 3: each ruling moves it.
      active: {
        alpha: 3,
        moves: [
          ['r1c1', 7, 5, true],
          ['r1c2', 5, 3, true],
        ],
      },
      // −4 in all, bounded to −2 for the round: 7 → 5, both exchanges ending there.
      passive: {
        alpha: 5,
        moves: [
          ['r1c1', 7, 5, true],
          ['r1c2', 7, 5, true],
        ],
      },
      passiveRange3: {
        alpha: 4,
        moves: [
          ['r1c1', 7, 4, true],
          ['r1c2', 7, 4, true],
        ],
      },
    });
  });

  it('a passive round’s synthesis picks from the settled positions only', () => {
    const ended = (options: EvaluationOptions, score: number) => () =>
      replayPartial(`${twoHits(options)}\n${JSON.stringify(synthesis([['alpha', score, 0.7]]))}`, taxonomy);
    expect(ended({}, 3)).not.toThrow();
    expect(ended({ arbiter: 'passive' }, 3)).toThrow(
      'line 11: synthesis: criteria[0].score: 3 for alpha is not one of the positions in play (7, 5)',
    );
  });

  it('an adjustment outside the range is refused at its line, naming the field', () => {
    expect(() => replayPartial(twoHits({ adjustmentRange: 1 }), taxonomy)).toThrow(
      /^line 9: arbiter: scoreAdjustment: Too small: expected number to be >=-1/,
    );
  });
});

describe('redTeamersPerEvaluator', () => {
  it('drops a further persona’s challenge on an evaluator already facing as many, as crowded', () => {
    const raised = (options: EvaluationOptions) =>
      script(
        withOptions(options),
        opening,
        redteam('skeptic', [['alpha', 'MAJOR', 'No customer has confirmed alpha']]),
        redteam('realist', [['beta', 'MAJOR', 'Beta counts a survey of friends']]),
        redteam('first-principles', [['gamma', 'MINOR', 'Gamma rests on an analogy']]),
      );
    const rounds = (options: EvaluationOptions) => {
      const round = replayPartial(raised(options), taxonomy).state.rounds[0];
      return { accepted: round?.accepted, dropped: round?.dropped.map((d) => [d.persona, d.criterion, d.reason]) };
    };
    expect({ any: rounds({}), one: rounds({ redTeamersPerEvaluator: 1 }) }).toEqual({
      any: { accepted: ['r1c1', 'r1c2', 'r1c3'], dropped: [] },
      // alpha and beta are both the problem evaluator's: the realist is a second persona against it.
      one: { accepted: ['r1c1', 'r1c2'], dropped: [['realist', 'beta', 'crowded']] },
    });
  });
});

describe('firstPrinciples', () => {
  it('strict: an exchange with a fallacy named earns no first-principles bonus, which lowers the confidence', () => {
    const run = (options: EvaluationOptions) =>
      runEvaluationReplay(
        script(
          withOptions(options),
          opening,
          redteam('skeptic', [['alpha', 'MAJOR', 'No customer has confirmed alpha']]),
          redteam('realist', [['gamma', 'MINOR', 'Gamma ignores the winter months']]),
          redteam('first-principles', []),
          defense(),
          defense(),
          ruling('EVALUATOR', 0, { bonus: true, fallacies: ['the red team argues from analogy'] }),
          ruling('EVALUATOR', 0, { bonus: true }),
          settle(),
          ...quietRound('beta', 'Beta leans on a single survey'),
          ...quietRound('delta', 'Delta’s supplier could stop'),
          narrative(),
        ),
        taxonomy,
      );
    const moderate = run({});
    const strict = run({ firstPrinciples: 'strict' });
    expect({
      moderate: moderate.confidenceParts.firstPrinciplesBonuses,
      strict: strict.confidenceParts.firstPrinciplesBonuses,
      // 0.2 × (bonuses / 4 exchanges): one bonus fewer is 0.05 less confidence.
      difference: Math.round((moderate.composites.overallConfidence - strict.composites.overallConfidence) * 1e4) / 1e4,
    }).toEqual({ moderate: 2, strict: 1, difference: 0.05 });
  });
});

describe('the locked document', () => {
  it('records the options it ran under, in the config and in synthesis.md’s frontmatter', () => {
    const doc = runEvaluationReplay(
      script(
        withOptions({ minConfidence: 0.5, arbiter: 'passive', redTeamersPerEvaluator: 2, firstPrinciples: 'lenient' }),
        twoQuietRounds,
        narrative(),
      ),
      taxonomy,
    );
    const md = renderSynthesisMd(doc);
    const front = md.slice(0, md.indexOf('\n---\n', 4));
    expect(front.slice(front.indexOf('options:'))).toBe(
      [
        'options:',
        '  redTeamersPerEvaluator: 2',
        '  firstPrinciples: lenient',
        '  arbiter: passive',
        '  adjustmentRange: 2',
        '  minConfidence: 0.5',
      ].join('\n'),
    );
    expect(md).toContain(
      'Debate options: at most 2 red-teamers per evaluator, lenient first principles, passive arbiter, adjustments within ±2, minimum confidence 0.5.',
    );
  });

  it('renders a document locked before the options exactly as before (no options block)', () => {
    const doc = runEvaluationReplay(script(header(), twoQuietRounds, quietRound('delta', 'D'), narrative()), taxonomy);
    const { redTeamersPerEvaluator, firstPrinciples, arbiter, ...older } = doc.config;
    const md = renderSynthesisMd({ ...doc, config: older });
    expect([
      md.includes('options:'),
      md.includes('Debate options'),
      renderSynthesisMd(doc).includes('options:'),
    ]).toEqual([false, false, true]);
  });
});

describe('options as given', () => {
  it('reads --option pairs by their types and names the field of a bad one', () => {
    expect(
      optionsFromPairs(['arbiter=passive', 'minConfidence=0.6', 'adjustmentRange=1', 'redTeamersPerEvaluator=2']),
    ).toEqual({ arbiter: 'passive', minConfidence: 0.6, adjustmentRange: 1, redTeamersPerEvaluator: 2 });
    const error = (pairs: string[]) => {
      try {
        optionsFromPairs(pairs);
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect([
      error(['minConfidence=0.95']),
      error(['arbiter=sometimes']),
      error(['redTeamersPerEvaluator=1.5']),
      error(['depth=3']),
      error(['arbiter']),
      error(['arbiter=active', 'arbiter=passive']),
    ]).toEqual([
      '--option minConfidence: must be at most 0.9',
      '--option arbiter: must be passive or active',
      '--option redTeamersPerEvaluator: must be a whole number',
      '--option unknown option "depth" (one of redTeamersPerEvaluator, firstPrinciples, arbiter, adjustmentRange, minConfidence)',
      '--option "arbiter": write it as NAME=VALUE (one of redTeamersPerEvaluator, firstPrinciples, arbiter, adjustmentRange, minConfidence)',
      '--option arbiter is given twice',
    ]);
    expect(() => checkOptions({ adjustmentRange: 4 })).toThrow('adjustmentRange: must be 1, 2 or 3');
  });
});
