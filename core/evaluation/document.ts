import { z } from 'zod';
import type { Narrative } from './answers';
import { narrativeSchema } from './answers';
import { evaluationConfigSchema } from './config';
import type { ConvergenceReport } from './convergence';
import { checkConvergence } from './convergence';
import type { ConfidenceParts } from './figures';
import {
  categoryScores,
  evaluationConfidence,
  informationCompleteness,
  movesInRound,
  overallScore,
  stabilityIndex,
  survivalRate,
  volatility,
} from './figures';
import type { EvaluationState, RoundRecord } from './state';
import { ruledChallenges, scoreMap } from './state';
import type { LockReason, Recommendation } from './vocabulary';
import { DROP_REASONS, LOCK_REASONS, MODES, RED_TEAM_PERSONAS, SEVERITIES, WINNERS } from './vocabulary';

// The final synthesis document (design page, seed 12A.8): what a locked evaluation leaves behind.
// It is built from the locked state alone, it is plain JSON, and nothing ever edits it: a reopened
// evaluation writes a new document that names this one in `supersedes`.

const share = z.number().min(0).max(1);
const score = z.number().min(1).max(10);
const nullableShare = share.nullable();
const count = z.number().int().min(0);

const droppedSchema = z.object({
  persona: z.enum(RED_TEAM_PERSONAS),
  criterion: z.string(),
  severity: z.enum(SEVERITIES),
  challenge: z.string(),
  reason: z.enum(DROP_REASONS),
  repeatOf: z.string().nullable(),
});

export const roundSummarySchema = z.object({
  round: z.number().int().min(1),
  status: z.enum(['complete', 'partial']),
  focus: z.string().nullable(),
  targets: z.array(z.string()),
  personas: z.array(z.enum(RED_TEAM_PERSONAS)),
  raised: z.number().int().min(0),
  accepted: z.array(z.string()),
  dropped: z.array(droppedSchema),
  repeats: z.number().int().min(0),
  overCap: z.number().int().min(0),
  offTarget: z.number().int().min(0),
  exchanges: z.number().int().min(0),
  evaluatorWins: z.number().int().min(0),
  redTeamWins: z.number().int().min(0),
  draws: z.number().int().min(0),
  newInsights: z.array(z.string()),
  maxMove: z.number().min(0),
  sumOfMoves: z.number().min(0),
  overallScore: score,
  /** True for rounds copied from the evaluation this one reopened. */
  inherited: z.boolean(),
});
export type RoundSummary = z.infer<typeof roundSummarySchema>;

/** One debated challenge: the red team's point, the defence, the ruling and how it ended. */
export const conflictSchema = z.object({
  id: z.string(),
  round: z.number().int().min(1),
  persona: z.enum(RED_TEAM_PERSONAS),
  criterion: z.string(),
  category: z.string(),
  severity: z.enum(SEVERITIES),
  challenge: z.string(),
  defense: z.string().nullable(),
  ruling: z
    .object({
      winner: z.enum(WINNERS),
      scoreAdjustment: z.number().int(),
      firstPrinciplesBonus: z.boolean(),
      fallacies: z.array(z.string()),
      reasoning: z.string(),
    })
    .nullable(),
  scoreBefore: score.nullable(),
  scoreAfter: score.nullable(),
  /** The evaluator won, or the red team won and the score moved. */
  resolved: z.boolean(),
  /** How the round's synthesis settled the criterion. */
  resolution: z.object({ prevailingPosition: z.string(), resolutionReasoning: z.string(), score }).nullable(),
});

const roundMovesSchema = z.object({
  round: z.number().int(),
  maxMove: z.number(),
  sumOfMoves: z.number(),
  moved: z.array(z.object({ criterion: z.string(), from: z.number(), to: z.number() })),
});

/** The four conditions of convergence after a round, each with its numbers. */
export const convergenceReportSchema = z.object({
  round: z.number().int().min(0),
  roundLimit: z.number().int().min(1),
  converged: z.boolean(),
  decision: z.enum(['LOCK', 'CONTINUE']),
  lockReason: z.enum(['CONVERGENCE', 'MAX_ROUNDS']).nullable(),
  conditions: z.object({
    stability: z.object({
      met: z.boolean(),
      maxDelta: z.number(),
      aggregateDelta: z.number(),
      roundsNeeded: z.number().int(),
      /** The last rounds examined, newest first. */
      rounds: z.array(roundMovesSchema),
    }),
    confidence: z.object({
      met: z.boolean(),
      minimum: share,
      criticalMinimum: share,
      lowest: nullableShare,
      below: z.array(z.object({ criterion: z.string(), confidence: share, required: share })),
    }),
    resolution: z.object({
      met: z.boolean(),
      critical: z.object({ resolved: count, total: count, unresolved: z.array(z.string()) }),
      major: z.object({ resolved: count, total: count, share: nullableShare, required: share }),
    }),
    saturation: z.object({
      met: z.boolean(),
      saturated: z.boolean(),
      newInsights: count,
      minNewInsights: count,
      repeats: count,
      raised: count,
      repeatShare: nullableShare,
      maxRepeatShare: share,
      roundLimitReached: z.boolean(),
    }),
  }),
  /** One sentence per unmet part. */
  blockers: z.array(z.string()),
});

export const finalSynthesisDocumentSchema = z.object({
  ideaId: z.string().min(1),
  ideaTitle: z.string(),
  evaluationId: z.string().min(1),
  mode: z.enum(MODES),
  /** FULL from nucleation, TARGETED for a disputed criterion. */
  scope: z.enum(['FULL', 'TARGETED']),
  supersedes: z.string().nullable(),
  dispute: z.object({ criterion: z.string(), reason: z.string() }).nullable(),
  startedAt: z.string(),
  completedAt: z.string(),
  /** Debate rounds run, the inherited ones of a reopened evaluation included. */
  rounds: z.number().int().min(0),
  durationMs: z.number().min(0),
  scores: z.array(
    z.object({
      criterion: z.string(),
      name: z.string(),
      category: z.string(),
      critical: z.boolean(),
      initialScore: score,
      finalScore: score,
      delta: z.number(),
      confidence: share,
      challenged: z.number().int().min(0),
      defended: z.number().int().min(0),
      survivalRate: nullableShare,
      openQuestions: z.array(z.string()),
    }),
  ),
  categories: z.array(
    z.object({ category: z.string(), name: z.string(), weight: share, initialScore: score, finalScore: score }),
  ),
  composites: z.object({
    overallScore: score,
    overallConfidence: share,
    redTeamSurvivalRate: nullableShare,
    convergenceRound: z.number().int().min(1).nullable(),
    stabilityIndex: share,
  }),
  /** The four ingredients of overallConfidence, unweighted. */
  confidenceParts: z.object({
    defended: z.number().int().min(0),
    challenges: z.number().int().min(0),
    firstPrinciplesBonuses: z.number().int().min(0),
    exchanges: z.number().int().min(0),
    volatility: share,
    completeness: share,
  }),
  narrative: narrativeSchema,
  /** `agent` when the narrative agent wrote it, `figures` when a limit forbade the call. */
  narrativeSource: z.enum(['agent', 'figures']),
  auditTrail: z.object({
    roundSummaries: z.array(roundSummarySchema),
    conflicts: z.array(conflictSchema),
    /** Per criterion, its score at the end of each round; index 0 is the initial score. */
    scoreTrajectory: z.array(z.object({ criterion: z.string(), scores: z.array(score) })),
    overallTrajectory: z.array(score),
  }),
  convergence: convergenceReportSchema,
  locked: z.literal(true),
  lockReason: z.enum(LOCK_REASONS),
  reopenConditions: z.array(z.string()),
  contentHashAtEvaluation: z.string(),
  information: z.object({ asked: z.number().int().min(0), answered: z.number().int().min(0) }),
  config: evaluationConfigSchema,
});
export type FinalSynthesisDocument = z.infer<typeof finalSynthesisDocumentSchema>;

/** Rounds to 4 decimals, so float noise (0.30000000000000004) never reaches a document. */
export function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

function overallTrajectory(state: EvaluationState): number[] {
  return state.snapshots.map((s) => overallScore(s, state.categories));
}

/** The parts of the overall confidence, counted over every ruled exchange. */
export function confidenceParts(state: EvaluationState): ConfidenceParts {
  const ruled = ruledChallenges(state);
  return {
    defended: ruled.filter((c) => c.ruling?.winner === 'EVALUATOR').length,
    challenges: ruled.length,
    firstPrinciplesBonuses: ruled.filter((c) => c.ruling?.firstPrinciplesBonus).length,
    exchanges: ruled.length,
    volatility: volatility(overallTrajectory(state)),
    completeness: informationCompleteness(state.information),
  };
}

function roundSummary(state: EvaluationState, record: RoundRecord): RoundSummary {
  const ids = state.criteria.map((c) => c.id);
  const moves = movesInRound(state.snapshots, record.round, ids);
  const debated = state.challenges.filter((c) => c.round === record.round && c.ruling !== null);
  const count = (reason: string) => record.dropped.filter((d) => d.reason === reason).length;
  return {
    round: record.round,
    status: record.status === 'partial' ? 'partial' : 'complete',
    focus: record.focus,
    targets: [...record.targets],
    personas: [...record.personas],
    raised: record.raised,
    accepted: [...record.accepted],
    dropped: record.dropped.map((d) => ({ ...d })),
    repeats: count('repeat'),
    overCap: count('over_cap'),
    offTarget: count('off_target'),
    exchanges: debated.length,
    evaluatorWins: debated.filter((c) => c.ruling?.winner === 'EVALUATOR').length,
    redTeamWins: debated.filter((c) => c.ruling?.winner === 'RED_TEAM').length,
    draws: debated.filter((c) => c.ruling?.winner === 'DRAW').length,
    newInsights: [...record.newInsights],
    maxMove: Math.max(0, ...ids.map((id) => moves[id] ?? 0)),
    sumOfMoves: ids.reduce((sum, id) => sum + (moves[id] ?? 0), 0),
    overallScore: round4(overallScore(state.snapshots[record.round] ?? {}, state.categories)),
    inherited: record.inherited,
  };
}

const pct = (n: number) => `${Math.round(n * 100)}%`;
const two = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** What would justify reopening: new inputs, a dispute, and whatever the evaluation left open. */
export function reopenConditions(state: EvaluationState, report: ConvergenceReport): string[] {
  const out = [
    `New material information: README.md, development.md or a research note changes (the content hash is no longer ${state.contentHash}).`,
    'A dispute of one criterion’s score, with a reason of at least 50 characters.',
  ];
  for (const c of state.challenges) {
    if (c.ruling && !c.resolved && c.severity === 'CRITICAL') {
      out.push(`Evidence that settles the unresolved CRITICAL challenge on ${c.criterion}: ${c.challenge}`);
    }
  }
  for (const b of report.conditions.confidence.below) {
    out.push(`Evidence that raises confidence in ${b.criterion} (now ${two(b.confidence)}, needs ${two(b.required)}).`);
  }
  return out;
}

/**
 * The narrative when no model call is allowed any more (the budget or the time ran out): composed
 * from the figures, and never recommending PURSUE on an evaluation that was cut short.
 */
export function figuresNarrative(state: EvaluationState, limit: 'BUDGET' | 'TIMEOUT'): Narrative {
  const scores = scoreMap(state);
  const overall = overallScore(scores, state.categories);
  const ruled = ruledChallenges(state);
  const rounds = Math.max(0, state.snapshots.length - 1);
  const name = (id: string) => state.criteria.find((c) => c.id === id)?.name ?? id;
  const record = (id: string) => {
    const on = ruled.filter((c) => c.criterion === id);
    return {
      total: on.length,
      won: on.filter((c) => c.ruling?.winner === 'EVALUATOR').length,
      lost: on.filter((c) => c.ruling?.winner === 'RED_TEAM').length,
    };
  };
  const ids = state.criteria.map((c) => c.id);
  const byScore = [...ids].sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || ids.indexOf(a) - ids.indexOf(b));
  const strengths = byScore
    .filter((id) => record(id).won > 0 && record(id).lost === 0)
    .slice(0, 3)
    .map((id) => `${name(id)}: ${scores[id]}/10, defended ${record(id).won} of ${record(id).total} challenges`);
  const weaknesses = [...byScore]
    .reverse()
    .filter((id) => record(id).lost > 0 || (scores[id] ?? 0) <= 4)
    .slice(0, 3)
    .map((id) => `${name(id)}: ${scores[id]}/10, lost ${record(id).lost} of ${record(id).total} challenges`);
  const assumptions = state.criteria
    .filter((c) => c.critical)
    .map(
      (c) => `${c.name} holds up (scored ${scores[c.id]}/10, confidence ${two(state.scores[c.id]?.confidence ?? 0)})`,
    );
  const unresolved = [
    ...state.challenges.filter((c) => !c.resolved).map((c) => `${name(c.criterion)}: ${c.challenge}`),
    ...ids.flatMap((id) => (state.scores[id]?.openQuestions ?? []).map((q) => `${name(id)}: ${q}`)),
  ].filter((q, i, all) => all.indexOf(q) === i);
  const recommendation: Recommendation = overall >= 5.5 ? 'REFINE' : overall >= 4 ? 'PAUSE' : 'ABANDON';
  const why = limit === 'BUDGET' ? 'the budget ran out' : 'the time limit passed';
  return {
    executiveSummary: `Locked early because ${why}, after ${rounds} round${rounds === 1 ? '' : 's'} and ${ruled.length} debated challenges. The overall score stands at ${two(overall)} of 10. No narrative could be written without another model call, so this summary is composed from the figures.`,
    keyStrengths: strengths,
    keyWeaknesses: weaknesses,
    criticalAssumptions: assumptions,
    unresolvedQuestions: unresolved,
    recommendation,
    recommendationReasoning: `Composed from the figures of an evaluation cut short (${why}): an overall score of ${two(overall)} maps to ${recommendation} (5.5 and above REFINE, 4 and above PAUSE, below that ABANDON). PURSUE is never recommended without a finished evaluation; red-team survival so far is ${ruled.length === 0 ? 'unknown' : pct(ruled.filter((c) => c.ruling?.winner === 'EVALUATOR').length / ruled.length)}.`,
  };
}

/** The final synthesis document of a state that has its lock reason and narrative. */
export function buildDocument(state: EvaluationState): FinalSynthesisDocument {
  const lockReason: LockReason | null = state.lockReason;
  if (lockReason === null || state.narrative === null || state.narrativeSource === null) {
    throw new Error('buildDocument: the evaluation has no lock reason or narrative yet');
  }
  const initial = state.snapshots[0] ?? {};
  const final = scoreMap(state);
  const ruled = ruledChallenges(state);
  const report = checkConvergence(state);
  const parts = confidenceParts(state);
  const initialByCategory = categoryScores(initial, state.categories);
  const finalByCategory = categoryScores(final, state.categories);
  const won = ruled.filter((c) => c.ruling?.winner === 'EVALUATOR').length;
  const survival = survivalRate(won, ruled.length);
  const rounds = Math.max(0, state.snapshots.length - 1);

  return {
    ideaId: state.idea.id,
    ideaTitle: state.idea.title,
    evaluationId: state.evaluationId,
    mode: state.mode,
    scope: state.scope,
    supersedes: state.supersedes,
    dispute: state.dispute ? { ...state.dispute } : null,
    startedAt: state.startedAt,
    completedAt: state.clock,
    rounds,
    durationMs: Math.max(0, Date.parse(state.clock) - Date.parse(state.startedAt)),
    scores: state.criteria.map((c) => {
      const on = ruled.filter((x) => x.criterion === c.id);
      const defended = on.filter((x) => x.ruling?.winner === 'EVALUATOR').length;
      const rate = survivalRate(defended, on.length);
      const first = initial[c.id] ?? 0;
      const last = final[c.id] ?? 0;
      return {
        criterion: c.id,
        name: c.name,
        category: c.category,
        critical: c.critical,
        initialScore: first,
        finalScore: last,
        delta: last - first,
        confidence: state.scores[c.id]?.confidence ?? 0,
        challenged: on.length,
        defended,
        survivalRate: rate === null ? null : round4(rate),
        openQuestions: [...(state.scores[c.id]?.openQuestions ?? [])],
      };
    }),
    categories: state.categories.map((c) => ({
      category: c.id,
      name: c.name,
      weight: c.weight,
      initialScore: round4(initialByCategory[c.id] ?? 0),
      finalScore: round4(finalByCategory[c.id] ?? 0),
    })),
    composites: {
      overallScore: round4(overallScore(final, state.categories)),
      overallConfidence: round4(evaluationConfidence(parts)),
      redTeamSurvivalRate: survival === null ? null : round4(survival),
      convergenceRound: lockReason === 'CONVERGENCE' ? report.round : null,
      stabilityIndex: round4(
        stabilityIndex(
          state.snapshots,
          state.criteria.map((c) => c.id),
          state.config.stability.maxDelta,
          state.config.stability.rounds,
        ),
      ),
    },
    confidenceParts: { ...parts, volatility: round4(parts.volatility), completeness: round4(parts.completeness) },
    narrative: JSON.parse(JSON.stringify(state.narrative)) as Narrative,
    narrativeSource: state.narrativeSource,
    auditTrail: {
      roundSummaries: state.rounds.filter((r) => r.status !== 'open').map((r) => roundSummary(state, r)),
      conflicts: state.challenges.map((c) => JSON.parse(JSON.stringify(c)) as (typeof state.challenges)[number]),
      scoreTrajectory: state.criteria.map((c) => ({
        criterion: c.id,
        scores: state.snapshots.map((s) => s[c.id] ?? 0),
      })),
      overallTrajectory: overallTrajectory(state).map(round4),
    },
    convergence: report,
    locked: true,
    lockReason,
    reopenConditions: reopenConditions(state, report),
    contentHashAtEvaluation: state.contentHash,
    information: { ...state.information },
    config: JSON.parse(JSON.stringify(state.config)) as FinalSynthesisDocument['config'],
  };
}
