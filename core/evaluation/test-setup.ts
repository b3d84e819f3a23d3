import { buildTaxonomy, type Taxonomy } from '../taxonomy/taxonomy';
import { answer, defense, evaluator, header, redteam, ruling, script, synthesis } from './script-builder';
import type { EvaluationSetup, EvaluationState } from './state';
import { createEvaluation } from './state';

// Fixtures for unit tests that must not read files: small taxonomies with the criteria a test
// needs, and states with chosen scores.

export interface CategorySpec {
  id: string;
  weight: number;
  /** Criterion ids; a trailing `!` marks a critical one. */
  criteria: string[];
}

export function taxonomyOf(categories: readonly CategorySpec[]): Taxonomy {
  return buildTaxonomy({
    stages: {
      file: 'stages.md',
      data: { kind: 'lifecycle-stages', stages: [{ id: 'SPARK', name: 'Spark', description: 'spark' }] },
    },
    criteria: {
      file: 'criteria.md',
      data: {
        kind: 'evaluation-criteria',
        scale: { min: 1, max: 10 },
        categories: categories.map((c) => ({
          id: c.id,
          name: c.id,
          weight: c.weight,
          criteria: c.criteria.map((raw) => {
            const id = raw.replace(/!$/, '');
            return {
              id,
              name: `${id[0]?.toUpperCase()}${id.slice(1).replace(/-/g, ' ')}`,
              description: id,
              scale: { low: 'low', high: 'high' },
              ...(raw.endsWith('!') ? { critical: true } : {}),
            };
          }),
        })),
      },
    },
    types: { file: 'types.md', data: { kind: 'idea-types', types: [{ id: 'research', name: 'R', description: 'r' }] } },
    tags: { file: 'tags.md', data: { kind: 'tags', categories: [] } },
  });
}

/** Two categories of two criteria; `alpha` and `delta` are critical. */
export function fourCriteria(): Taxonomy {
  return taxonomyOf([
    { id: 'problem', weight: 0.6, criteria: ['alpha!', 'beta'] },
    { id: 'risk', weight: 0.4, criteria: ['gamma', 'delta!'] },
  ]);
}

export const SETUP: EvaluationSetup = {
  evaluationId: 'eval-1',
  idea: { id: 'idea-1', title: 'Test idea' },
  mode: 'standard',
  contentHash: 'hash-1',
  information: { asked: 4, answered: 2 },
};

/** A fresh state whose criteria already stand at the given `[score, confidence]`. */
export function stateWithScores(
  taxonomy: Taxonomy,
  scores: Record<string, readonly [number, number]>,
  setup: Partial<EvaluationSetup> = {},
): EvaluationState {
  const state = createEvaluation({ ...SETUP, ...setup }, taxonomy);
  for (const [id, [score, confidence]] of Object.entries(scores)) {
    state.scores[id] = { score, confidence, reasoning: '', openQuestions: [] };
  }
  return state;
}

/**
 * A three-round standard evaluation of `fourCriteria()` with two challenges per round, worked
 * through by hand in document.test.ts: a capped challenge, a repeat, a draw, red-team wins and a
 * lock at the round limit.
 */
export function threeRoundScript(): string {
  return script(
    header({
      config: { challengesPerRound: 2 },
      information: { asked: 4, answered: 3 },
      startedAt: '2025-01-01T10:00:00.000Z',
      evaluationId: 'eval-doc',
    }),
    // Round 0. Overall = 0.6·(8 + 6)/2 + 0.4·(5 + 7)/2 = 4.2 + 2.4 = 6.6
    evaluator('problem', [
      ['alpha', 8, 0.6],
      ['beta', 6, 0.7],
    ]),
    evaluator('risk', [
      ['gamma', 5, 0.6],
      ['delta', 7, 0.5],
    ]),
    // Round 1. Targets by score/10 + (1 − confidence): alpha 1.2, delta 1.2, beta 0.9, gamma 0.9.
    // Three challenges raised, the cap is two: gamma's (third in turn) is dropped.
    redteam('skeptic', [['alpha', 'CRITICAL', 'No paying customer has confirmed the alpha claim']]),
    redteam('realist', [['delta', 'MAJOR', 'The delta plan needs two more engineers']]),
    redteam('first-principles', [['gamma', 'MINOR', 'Gamma rests on an analogy with ride sharing']]),
    defense('Three letters of intent exist.'),
    defense('The plan needs one engineer, not three.'),
    ruling('RED_TEAM', -2, { fallacies: ['appeal to authority'] }), // alpha 8 → 6: resolved
    ruling('EVALUATOR', 0, { bonus: true }), // delta holds at 7: resolved
    synthesis(
      [
        ['alpha', 6, 0.8],
        ['beta', 6, 0.7],
        ['gamma', 5, 0.7],
        ['delta', 7, 0.8],
      ],
      ['Demand is unproven', 'Staffing is lighter than feared'],
    ),
    // Overall = 0.6·(6 + 6)/2 + 0.4·(5 + 7)/2 = 3.6 + 2.4 = 6.0
    // Round 2. Targets: beta 0.9, gamma 0.8, delta 0.8 − ε, alpha 0.7 → beta, gamma.
    // The skeptic repeats round 1 word for word (dropped); gamma's challenge was never debated, so it is new.
    redteam('skeptic', [['alpha', 'CRITICAL', 'No paying customer has confirmed the alpha claim']]),
    redteam('realist', [['beta', 'MAJOR', 'Beta’s evidence is a single anecdote']]),
    redteam('first-principles', [['gamma', 'MINOR', 'Gamma rests on an analogy with ride sharing']]),
    defense('Two anecdotes, in fact.'),
    defense('The analogy is only an illustration.'),
    ruling('DRAW'), // beta: unresolved MAJOR
    ruling('RED_TEAM', -1, { bonus: true }), // gamma 5 → 4: resolved
    synthesis(
      [
        ['alpha', 6, 0.85],
        ['beta', 6, 0.75, ['Is there a second source?']],
        ['gamma', 4, 0.7],
        ['delta', 7, 0.8],
      ],
      ['Demand is unproven!', 'Regulation is a non-issue'],
    ),
    // Overall = 0.6·6 + 0.4·(4 + 7)/2 = 3.6 + 2.2 = 5.8. Only one insight is new (the first repeats round 1).
    // Round 3. Targets: delta 0.8 − ε (one exchange), beta 0.75, alpha 0.65, gamma 0.6 → delta, beta.
    redteam('skeptic', [['delta', 'MAJOR', 'Delta’s supplier could raise prices']]),
    redteam('realist', []),
    redteam('first-principles', []),
    defense('Two suppliers quote the same part.'),
    ruling('EVALUATOR'),
    synthesis([
      ['beta', 6, 0.8],
      ['delta', 7, 0.85],
    ]),
    // Round 3 is the limit: stability (gamma moved in round 2) and MAJOR resolution (2 of 3) fail → MAX_ROUNDS.
    answer(
      'narrative',
      {
        executiveSummary: 'Sound idea, unproven demand.',
        keyStrengths: ['Delta survived both challenges'],
        keyWeaknesses: ['Alpha lost two points'],
        criticalAssumptions: ['Customers will pay'],
        unresolvedQuestions: ['Is there a second source for beta?'],
        recommendation: 'REFINE',
        recommendationReasoning: 'Validate demand first.',
      },
      '2025-01-01T10:07:30.000Z',
    ),
  );
}
