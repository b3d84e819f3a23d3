import { describe, expect, it } from 'vitest';
import { figuresNarrative, finalSynthesisDocumentSchema } from './document';
import { replayEvaluation } from './replay';
import { scoreMap } from './state';
import { fourCriteria, stateWithScores, threeRoundScript } from './test-setup';

// A three-round standard evaluation on four criteria (problem 0.6: alpha!, beta; risk 0.4: gamma,
// delta!), two challenges per round, worked through by hand. The comments give the arithmetic.

const text = threeRoundScript();

const ruled = (winner: string, scoreAdjustment: number, firstPrinciplesBonus: boolean, fallacies: string[] = []) => ({
  winner,
  scoreAdjustment,
  firstPrinciplesBonus,
  fallacies,
  reasoning: `${winner} takes the point`,
});
const settled = (criterion: string, score: number) => ({
  prevailingPosition: 'The stronger argument',
  resolutionReasoning: `It settles ${criterion} at ${score}`,
  score,
});
const noMoves = (round: number) => ({ round, maxMove: 0, sumOfMoves: 0, moved: [] });

describe('the final synthesis document', () => {
  const run = replayEvaluation(text, fourCriteria());

  it('holds every field of the design page, computed by hand', () => {
    expect(run.document).toEqual({
      ideaId: 'idea-1',
      ideaTitle: 'Test idea',
      evaluationId: 'eval-doc',
      mode: 'standard',
      scope: 'FULL',
      supersedes: null,
      dispute: null,
      startedAt: '2025-01-01T10:00:00.000Z',
      completedAt: '2025-01-01T10:07:30.000Z',
      rounds: 3,
      durationMs: 450_000,
      scores: [
        {
          criterion: 'alpha',
          name: 'Alpha',
          category: 'problem',
          critical: true,
          initialScore: 8,
          finalScore: 6,
          delta: -2,
          confidence: 0.85,
          challenged: 1,
          defended: 0,
          survivalRate: 0,
          openQuestions: [],
        },
        {
          criterion: 'beta',
          name: 'Beta',
          category: 'problem',
          critical: false,
          initialScore: 6,
          finalScore: 6,
          delta: 0,
          confidence: 0.8,
          challenged: 1,
          defended: 0,
          survivalRate: 0,
          openQuestions: [],
        },
        {
          criterion: 'gamma',
          name: 'Gamma',
          category: 'risk',
          critical: false,
          initialScore: 5,
          finalScore: 4,
          delta: -1,
          confidence: 0.7,
          challenged: 1,
          defended: 0,
          survivalRate: 0,
          openQuestions: [],
        },
        {
          criterion: 'delta',
          name: 'Delta',
          category: 'risk',
          critical: true,
          initialScore: 7,
          finalScore: 7,
          delta: 0,
          confidence: 0.85,
          challenged: 2,
          defended: 2,
          survivalRate: 1,
          openQuestions: [],
        },
      ],
      categories: [
        { category: 'problem', name: 'problem', weight: 0.6, initialScore: 7, finalScore: 6 },
        { category: 'risk', name: 'risk', weight: 0.4, initialScore: 6, finalScore: 5.5 },
      ],
      composites: {
        overallScore: 5.8,
        // 0.4·(2/5) + 0.2·(2/5) + 0.2·(1 − (6.0 − 5.8)/10) + 0.2·(3/4) = 0.16 + 0.08 + 0.196 + 0.15
        overallConfidence: 0.586,
        redTeamSurvivalRate: 0.4, // delta's two wins out of five rulings
        convergenceRound: null,
        stabilityIndex: 0.75, // gamma moved in round 2, the other three held still in rounds 2 and 3
      },
      confidenceParts: {
        defended: 2,
        challenges: 5,
        firstPrinciplesBonuses: 2,
        exchanges: 5,
        volatility: 0.02,
        completeness: 0.75,
      },
      narrative: {
        executiveSummary: 'Sound idea, unproven demand.',
        keyStrengths: ['Delta survived both challenges'],
        keyWeaknesses: ['Alpha lost two points'],
        criticalAssumptions: ['Customers will pay'],
        unresolvedQuestions: ['Is there a second source for beta?'],
        recommendation: 'REFINE',
        recommendationReasoning: 'Validate demand first.',
      },
      narrativeSource: 'agent',
      auditTrail: {
        roundSummaries: [
          {
            round: 1,
            status: 'complete',
            focus: null,
            targets: ['alpha', 'delta'],
            personas: ['skeptic', 'realist', 'first-principles'],
            raised: 3,
            accepted: ['r1c1', 'r1c2'],
            dropped: [
              {
                persona: 'first-principles',
                criterion: 'gamma',
                severity: 'MINOR',
                challenge: 'Gamma rests on an analogy with ride sharing',
                reason: 'over_cap',
                repeatOf: null,
              },
            ],
            repeats: 0,
            overCap: 1,
            offTarget: 0,
            exchanges: 2,
            evaluatorWins: 1,
            redTeamWins: 1,
            draws: 0,
            newInsights: ['Demand is unproven', 'Staffing is lighter than feared'],
            maxMove: 2,
            sumOfMoves: 2,
            overallScore: 6,
            inherited: false,
          },
          {
            round: 2,
            status: 'complete',
            focus: null,
            targets: ['beta', 'gamma'],
            personas: ['skeptic', 'realist', 'first-principles'],
            raised: 3,
            accepted: ['r2c1', 'r2c2'],
            dropped: [
              {
                persona: 'skeptic',
                criterion: 'alpha',
                severity: 'CRITICAL',
                challenge: 'No paying customer has confirmed the alpha claim',
                reason: 'repeat',
                repeatOf: 'r1c1',
              },
            ],
            repeats: 1,
            overCap: 0,
            offTarget: 0,
            exchanges: 2,
            evaluatorWins: 0,
            redTeamWins: 1,
            draws: 1,
            newInsights: ['Regulation is a non-issue'],
            maxMove: 1,
            sumOfMoves: 1,
            overallScore: 5.8,
            inherited: false,
          },
          {
            round: 3,
            status: 'complete',
            focus: null,
            targets: ['delta', 'beta'],
            personas: ['skeptic', 'realist', 'first-principles'],
            raised: 1,
            accepted: ['r3c1'],
            dropped: [],
            repeats: 0,
            overCap: 0,
            offTarget: 0,
            exchanges: 1,
            evaluatorWins: 1,
            redTeamWins: 0,
            draws: 0,
            newInsights: [],
            maxMove: 0,
            sumOfMoves: 0,
            overallScore: 5.8,
            inherited: false,
          },
        ],
        conflicts: [
          {
            id: 'r1c1',
            round: 1,
            persona: 'skeptic',
            criterion: 'alpha',
            category: 'problem',
            severity: 'CRITICAL',
            challenge: 'No paying customer has confirmed the alpha claim',
            defense: 'Three letters of intent exist.',
            ruling: ruled('RED_TEAM', -2, false, ['appeal to authority']),
            scoreBefore: 8,
            scoreAfter: 6,
            resolved: true,
            resolution: settled('alpha', 6),
          },
          {
            id: 'r1c2',
            round: 1,
            persona: 'realist',
            criterion: 'delta',
            category: 'risk',
            severity: 'MAJOR',
            challenge: 'The delta plan needs two more engineers',
            defense: 'The plan needs one engineer, not three.',
            ruling: ruled('EVALUATOR', 0, true),
            scoreBefore: 7,
            scoreAfter: 7,
            resolved: true,
            resolution: settled('delta', 7),
          },
          {
            id: 'r2c1',
            round: 2,
            persona: 'realist',
            criterion: 'beta',
            category: 'problem',
            severity: 'MAJOR',
            challenge: 'Beta’s evidence is a single anecdote',
            defense: 'Two anecdotes, in fact.',
            ruling: ruled('DRAW', 0, false),
            scoreBefore: 6,
            scoreAfter: 6,
            resolved: false,
            resolution: settled('beta', 6),
          },
          {
            id: 'r2c2',
            round: 2,
            persona: 'first-principles',
            criterion: 'gamma',
            category: 'risk',
            severity: 'MINOR',
            challenge: 'Gamma rests on an analogy with ride sharing',
            defense: 'The analogy is only an illustration.',
            ruling: ruled('RED_TEAM', -1, true),
            scoreBefore: 5,
            scoreAfter: 4,
            resolved: true,
            resolution: settled('gamma', 4),
          },
          {
            id: 'r3c1',
            round: 3,
            persona: 'skeptic',
            criterion: 'delta',
            category: 'risk',
            severity: 'MAJOR',
            challenge: 'Delta’s supplier could raise prices',
            defense: 'Two suppliers quote the same part.',
            ruling: ruled('EVALUATOR', 0, false),
            scoreBefore: 7,
            scoreAfter: 7,
            resolved: true,
            resolution: settled('delta', 7),
          },
        ],
        scoreTrajectory: [
          { criterion: 'alpha', scores: [8, 6, 6, 6] },
          { criterion: 'beta', scores: [6, 6, 6, 6] },
          { criterion: 'gamma', scores: [5, 5, 4, 4] },
          { criterion: 'delta', scores: [7, 7, 7, 7] },
        ],
        overallTrajectory: [6.6, 6, 5.8, 5.8],
      },
      convergence: {
        round: 3,
        roundLimit: 3,
        converged: false,
        decision: 'LOCK',
        lockReason: 'MAX_ROUNDS',
        conditions: {
          stability: {
            met: false,
            maxDelta: 0.5,
            aggregateDelta: 1,
            roundsNeeded: 2,
            rounds: [
              noMoves(3),
              { round: 2, maxMove: 1, sumOfMoves: 1, moved: [{ criterion: 'gamma', from: 5, to: 4 }] },
            ],
          },
          confidence: { met: true, minimum: 0.7, criticalMinimum: 0.8, lowest: 0.7, below: [] },
          resolution: {
            met: false,
            critical: { resolved: 1, total: 1, unresolved: [] },
            major: { resolved: 2, total: 3, share: 2 / 3, required: 0.8 },
          },
          saturation: {
            met: true,
            saturated: true,
            newInsights: 0,
            minNewInsights: 2,
            repeats: 0,
            raised: 1,
            repeatShare: 0,
            maxRepeatShare: 0.5,
            roundLimitReached: true,
          },
        },
        blockers: [
          'stability: gamma moved 1 in round 2 (limit 0.5)',
          'resolution: 2 of 3 MAJOR challenges resolved (66.7%, needs 80%)',
        ],
      },
      locked: true,
      lockReason: 'MAX_ROUNDS',
      reopenConditions: [
        'New material information: README.md, development.md or a research note changes (the content hash is no longer hash-1).',
        'A dispute of one criterion’s score, with a reason of at least 50 characters.',
      ],
      contentHashAtEvaluation: 'hash-1',
      information: { asked: 4, answered: 3 },
      config: {
        maxRounds: 3,
        challengesPerRound: 2,
        scoreAdjustmentRange: 2,
        redTeamersPerEvaluator: null,
        firstPrinciples: 'moderate',
        arbiter: 'active',
        repeatSimilarity: 0.6,
        stability: { maxDelta: 0.5, aggregateDelta: 1, rounds: 2 },
        confidence: { minimum: 0.7, criticalMinimum: 0.8 },
        majorResolvedShare: 0.8,
        saturation: { minNewInsights: 2, repeatShare: 0.5 },
        maxRetries: 3,
      },
    });
  });

  it('passes its own schema, and the schema rejects a document that is not locked', () => {
    expect(finalSynthesisDocumentSchema.safeParse(run.document).success).toBe(true);
    expect(finalSynthesisDocumentSchema.safeParse({ ...run.document, locked: false }).success).toBe(false);
    expect(finalSynthesisDocumentSchema.safeParse({ ...run.document, lockReason: 'BORED' }).success).toBe(false);
  });

  it('lists what would justify reopening, including unresolved critical challenges and low confidences', () => {
    const variant = text
      .replace('{"winner":"RED_TEAM","scoreAdjustment":-2', '{"winner":"DRAW","scoreAdjustment":0')
      .replace('{"criterion":"alpha","score":6,"confidence":0.8', '{"criterion":"alpha","score":8,"confidence":0.8')
      .replace('{"criterion":"alpha","score":6,"confidence":0.85', '{"criterion":"alpha","score":8,"confidence":0.75');
    expect(replayEvaluation(variant, fourCriteria()).document.reopenConditions).toEqual([
      'New material information: README.md, development.md or a research note changes (the content hash is no longer hash-1).',
      'A dispute of one criterion’s score, with a reason of at least 50 characters.',
      'Evidence that settles the unresolved CRITICAL challenge on alpha: No paying customer has confirmed the alpha claim',
      'Evidence that raises confidence in alpha (now 0.75, needs 0.80).',
    ]);
  });
});

describe('the narrative composed from the figures', () => {
  it('names defended strengths, lost or low weaknesses, critical assumptions and what is still open', () => {
    const state = stateWithScores(fourCriteria(), {
      alpha: [9, 0.8],
      beta: [7, 0.7],
      gamma: [3, 0.6],
      delta: [5, 0.9],
    });
    state.snapshots = [{ alpha: 9, beta: 7, gamma: 4, delta: 5 }, scoreMap(state)];
    state.scores.delta = { score: 5, confidence: 0.9, reasoning: '', openQuestions: ['Who maintains it?'] };
    const challenge = (id: string, criterion: string, winner: 'EVALUATOR' | 'RED_TEAM' | 'DRAW') => ({
      id,
      round: 1,
      persona: 'skeptic' as const,
      criterion,
      category: 'x',
      severity: 'MAJOR' as const,
      challenge: `${criterion} is doubtful`,
      defense: 'd',
      ruling: { winner, scoreAdjustment: 0, firstPrinciplesBonus: false, fallacies: [], reasoning: 'r' },
      scoreBefore: 5,
      scoreAfter: 5,
      resolved: winner === 'EVALUATOR',
      resolution: null,
    });
    state.challenges = [
      challenge('r1c1', 'alpha', 'EVALUATOR'),
      challenge('r1c2', 'beta', 'EVALUATOR'),
      challenge('r1c3', 'gamma', 'RED_TEAM'),
      challenge('r1c4', 'delta', 'DRAW'),
    ];
    // Overall = 0.6·(9 + 7)/2 + 0.4·(3 + 5)/2 = 4.8 + 1.6 = 6.4 → REFINE (never PURSUE when cut short)
    expect(figuresNarrative(state, 'TIMEOUT')).toEqual({
      executiveSummary:
        'Locked early because the time limit passed, after 1 round and 4 debated challenges. The overall score stands at 6.40 of 10. No narrative could be written without another model call, so this summary is composed from the figures.',
      keyStrengths: ['Alpha: 9/10, defended 1 of 1 challenges', 'Beta: 7/10, defended 1 of 1 challenges'],
      keyWeaknesses: ['Gamma: 3/10, lost 1 of 1 challenges'],
      criticalAssumptions: [
        'Alpha holds up (scored 9/10, confidence 0.80)',
        'Delta holds up (scored 5/10, confidence 0.90)',
      ],
      unresolvedQuestions: ['Gamma: gamma is doubtful', 'Delta: delta is doubtful', 'Delta: Who maintains it?'],
      recommendation: 'REFINE',
      recommendationReasoning:
        'Composed from the figures of an evaluation cut short (the time limit passed): an overall score of 6.40 maps to REFINE (5.5 and above REFINE, 4 and above PAUSE, below that ABANDON). PURSUE is never recommended without a finished evaluation; red-team survival so far is 50%.',
    });
  });
});
