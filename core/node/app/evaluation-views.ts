import type { EvaluationDetail, EvaluationSummary } from '../../contract';
import type { EvaluationState, FinalSynthesisDocument } from '../../evaluation';
import { askInWords } from '../../evaluation/ask-words';
import { overallScore, survivalRate } from '../../evaluation/figures';
import { completeConfig } from '../../evaluation/config';
import { renderSynthesisMd } from '../../evaluation/markdown';
import { optionsInWords, optionsOf } from '../../evaluation/options';
import { predictionText, predictRounds } from '../../evaluation/prediction';
import { contentCheck } from '../../evaluation/reopen-triggers';
import { ruledChallenges, scoreMap } from '../../evaluation/state';
import type { EvaluationTrack } from '../evaluations/evaluation-track';
import type { RecordHead } from './evaluation-briefs';
import type { EvaluationRunStatus } from './live-evaluations';

/** The options an evaluation ran under, with the sentence the views show. */
function optionsView(config: Parameters<typeof optionsOf>[0]): EvaluationDetail['options'] {
  const options = optionsOf(config);
  return { ...options, words: optionsInWords(options) };
}

/**
 * The contract's shapes of an evaluation, built from what this app knows of it: a track (the state
 * folded from its inputs, live or rebuilt) and, once locked, its record. What the record does not
 * hold (provider, cost, budget, why it stopped) comes in `meta`.
 */
export interface EvaluationMeta {
  id: string;
  slug: string;
  run: EvaluationRunStatus;
  provider: string | null;
  costUsd: number | null;
  budgetUsd: number | null;
  stopReason: string | null;
  /** Answers a run like it needs in all (progress's total). */
  expectedAnswers: number;
  /** The idea's content hash now (staleness) and its current evaluation id. */
  ideaHash: string | null;
  currentId: string | null;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The fields every summary takes from `meta`, spelt out rather than spread: a spread object followed
 * by a dozen more fields is built ten times slower (40 µs a summary, 0.4 s for a list of 10,000).
 */
function common(meta: EvaluationMeta, contentHash: string) {
  return {
    id: meta.id,
    slug: meta.slug,
    status: meta.run.status,
    live: meta.run.live,
    stopRequested: meta.run.stopRequested,
    provider: meta.provider,
    costUsd: meta.costUsd === null ? null : round4(meta.costUsd),
    budgetUsd: meta.budgetUsd,
    stopReason: meta.stopReason,
    stale: meta.ideaHash !== null && meta.ideaHash !== contentHash,
    current: meta.currentId === meta.id,
  };
}

/** A locked record's summary: from its document, or from the head of it a listing keeps (RecordHead). */
export function summaryFromDocument(doc: RecordHead, meta: EvaluationMeta): EvaluationSummary {
  const c = common(meta, doc.contentHashAtEvaluation);
  return {
    id: c.id,
    slug: c.slug,
    status: c.status,
    live: c.live,
    stopRequested: c.stopRequested,
    provider: c.provider,
    costUsd: c.costUsd,
    budgetUsd: c.budgetUsd,
    stopReason: c.stopReason,
    stale: c.stale,
    current: c.current,
    ideaTitle: doc.ideaTitle,
    mode: doc.mode,
    scope: doc.scope,
    phase: 'LOCKED',
    round: doc.rounds,
    // The limit it ran under at the lock: a round the researcher added, or a dispute's one more, counts.
    roundLimit: doc.convergence.roundLimit,
    lockReason: doc.lockReason,
    overallScore: doc.composites.overallScore,
    confidence: doc.composites.overallConfidence,
    redTeamSurvival: doc.composites.redTeamSurvivalRate,
    recommendation: doc.narrative.recommendation,
    supersedes: doc.supersedes,
    startedAt: doc.startedAt,
    completedAt: doc.completedAt,
    progress: { done: meta.expectedAnswers, total: meta.expectedAnswers },
  };
}

export function summaryFromTrack(
  track: EvaluationTrack,
  meta: EvaluationMeta,
  record: FinalSynthesisDocument | null = track.state.document,
): EvaluationSummary {
  const s = track.state;
  if (record) return summaryFromDocument(record, meta);
  const scored = s.criteria.length > 0 && s.criteria.every((c) => s.scores[c.id] !== undefined);
  const ruled = ruledChallenges(s);
  const survival = survivalRate(ruled.filter((c) => c.ruling?.winner === 'EVALUATOR').length, ruled.length);
  const confidence = track.confidence.findLast((c) => c !== null) ?? null;
  return {
    ...common(meta, s.contentHash),
    ideaTitle: s.idea.title,
    mode: s.mode,
    scope: s.scope,
    phase: s.phase,
    round: s.round,
    roundLimit: s.roundLimit,
    lockReason: s.lockReason,
    overallScore: scored ? round4(overallScore(scoreMap(s), s.categories)) : null,
    confidence: confidence === null ? null : round4(confidence),
    redTeamSurvival: survival === null ? null : round4(survival),
    recommendation: s.narrative?.recommendation ?? null,
    supersedes: s.supersedes,
    startedAt: s.startedAt,
    completedAt: null,
    progress: { done: track.answers, total: Math.max(track.answers, meta.expectedAnswers) },
  };
}

/**
 * Everything about an evaluation followed input by input (running, stopped, or a rebuilt record;
 * for a record, `record` is the locked document as written, which has the last word).
 */
export function detailFromTrack(
  track: EvaluationTrack,
  meta: EvaluationMeta,
  record: FinalSynthesisDocument | null = track.state.document,
): EvaluationDetail {
  const s = track.state;
  const doc = record;
  const summary = summaryFromTrack(track, meta, record);
  const ruled = ruledChallenges(s);
  const overall = s.snapshots.map((snap) => round4(overallScore(snap, s.categories)));
  const byCategory = (scores: Record<string, number>, id: string) => {
    const ids = s.categories.find((c) => c.id === id)?.criteria ?? [];
    if (ids.length === 0 || ids.some((k) => scores[k] === undefined)) return null;
    return round4(ids.reduce((sum, k) => sum + (scores[k] ?? 0), 0) / ids.length);
  };
  const now = scoreMap(s);
  const first = s.snapshots[0] ?? {};
  return {
    ...summary,
    options: optionsView(completeConfig(s.config)),
    ...ownStaleness(summary.stale),
    prediction: prediction(s),
    addRoundPreview: null,
    dispute: s.dispute ? { ...s.dispute } : null,
    criteria: s.criteria.map((c) => {
      const on = ruled.filter((x) => x.criterion === c.id);
      const standing = s.scores[c.id];
      return {
        id: c.id,
        name: c.name,
        category: c.category,
        critical: c.critical,
        score: standing?.score ?? null,
        confidence: standing ? Math.min(1, Math.max(0, standing.confidence)) : null,
        scores: s.snapshots.map((snap) => snap[c.id] ?? 0),
        confidences: track.criterionConfidence[c.id] ?? [],
        reasoning: standing?.reasoning ?? null,
        openQuestions: [...(standing?.openQuestions ?? [])],
        challenged: on.length,
        defended: on.filter((x) => x.ruling?.winner === 'EVALUATOR').length,
      };
    }),
    categories: s.categories.map((c) => ({
      id: c.id,
      name: c.name,
      weight: c.weight,
      score: byCategory(now, c.id),
      initialScore: byCategory(first, c.id),
    })),
    rounds: s.rounds.map((r) => ({
      round: r.round,
      status: r.status,
      focus: r.focus,
      targets: [...r.targets],
      personas: [...r.personas],
      raised: r.raised,
      accepted: r.accepted.length,
      dropped: r.dropped.length,
      newInsights: [...r.newInsights],
      inherited: r.inherited,
    })),
    overallTrajectory: overall,
    confidenceTrajectory: track.confidence.map((c) => (c === null ? null : round4(c))),
    challenges: s.challenges.map((c) => JSON.parse(JSON.stringify(c)) as EvaluationDetail['challenges'][number]),
    convergence: s.convergence.map((r) => JSON.parse(JSON.stringify(r)) as EvaluationDetail['convergence'][number]),
    latestConvergence: doc ? doc.convergence : (s.convergence[s.convergence.length - 1] ?? null),
    narrative: s.narrative ? { ...s.narrative } : null,
    reopenConditions: doc ? [...doc.reopenConditions] : [],
    synthesisMarkdown: doc ? renderSynthesisMd(doc) : null,
    awaiting: s.awaiting.map((a) => askInWords(a, s)),
    entries: track.entries,
  };
}

/**
 * A locked evaluation whose inputs could not be replayed (its script is missing, or the taxonomy
 * changed since): everything the record holds, without the entries and the confidence by round.
 */
export function detailFromDocument(doc: FinalSynthesisDocument, meta: EvaluationMeta): EvaluationDetail {
  const rounds = doc.auditTrail.overallTrajectory.length;
  return {
    ...summaryFromDocument(doc, meta),
    options: optionsView(completeConfig(doc.config)),
    ...ownStaleness(common(meta, doc.contentHashAtEvaluation).stale),
    prediction: null,
    addRoundPreview: null,
    dispute: doc.dispute,
    criteria: doc.scores.map((c) => ({
      id: c.criterion,
      name: c.name,
      category: c.category,
      critical: c.critical,
      score: c.finalScore,
      confidence: c.confidence,
      scores: doc.auditTrail.scoreTrajectory.find((t) => t.criterion === c.criterion)?.scores ?? [],
      confidences: Array.from({ length: rounds }, (_, i) => (i === rounds - 1 ? c.confidence : null)),
      reasoning: null,
      openQuestions: [...c.openQuestions],
      challenged: c.challenged,
      defended: c.defended,
    })),
    categories: doc.categories.map((c) => ({
      id: c.category,
      name: c.name,
      weight: c.weight,
      score: c.finalScore,
      initialScore: c.initialScore,
    })),
    rounds: doc.auditTrail.roundSummaries.map((r) => ({
      round: r.round,
      status: r.status,
      focus: r.focus,
      targets: [...r.targets],
      personas: [...r.personas],
      raised: r.raised,
      accepted: r.accepted.length,
      dropped: r.dropped.length,
      newInsights: [...r.newInsights],
      inherited: r.inherited,
    })),
    overallTrajectory: [...doc.auditTrail.overallTrajectory],
    confidenceTrajectory: Array.from({ length: rounds }, (_, i) =>
      i === rounds - 1 ? doc.composites.overallConfidence : null,
    ),
    challenges: doc.auditTrail.conflicts,
    convergence: [],
    latestConvergence: doc.convergence,
    narrative: doc.narrative,
    reopenConditions: [...doc.reopenConditions],
    synthesisMarkdown: renderSynthesisMd(doc),
    awaiting: [],
    entries: [],
  };
}

/** What the detail says of staleness by itself: the idea's own inputs (the reader adds the rest). */
function ownStaleness(stale: boolean): Pick<EvaluationDetail, 'staleReasons' | 'staleChecks'> {
  const check = contentCheck(stale);
  return check ? { staleReasons: [check.reason], staleChecks: [check] } : { staleReasons: [], staleChecks: [] };
}

function prediction(state: EvaluationState): EvaluationDetail['prediction'] {
  const p = predictRounds(state);
  return p ? { ...p, text: predictionText(p), needs: p.needs.map((n) => ({ ...n })) } : null;
}

/** The words for a run that ended without a lock. */
export function stoppedReason(state: EvaluationState, reason: string | null): string | null {
  if (state.phase === 'FAILED') return state.failure ?? 'failed';
  return reason;
}
