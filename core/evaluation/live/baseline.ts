import type { Llm, LlmCallRecord } from '../../ports/llm';
import type { FinalSynthesisDocument } from '../document';
import type { EvaluationState } from '../state';
import { advance } from '../step';
import { type EvaluationPrompts, inputFor, requestFor } from './requests';

/**
 * "Is the debate worth it?": the same idea scored in a single pass — one call per category, no red
 * team, no arbiter — set beside the debated result, criterion by criterion, with what moved each
 * score in the debate and what each approach cost.
 */
export interface BaselineComparison {
  baselineCostUsd: number;
  debateCostUsd: number;
  baselineOverall: number;
  debatedOverall: number;
  criteria: {
    criterion: string;
    baselineScore: number;
    debatedScore: number;
    delta: number;
    /** The debate's rulings that moved this criterion's score, in order. */
    changedBy: { round: number; persona: string; severity: string; challenge: string; from: number; to: number }[];
  }[];
}

/** Runs the single pass: nucleation of a fresh evaluation state, nothing after it. */
export async function singlePass(
  fresh: EvaluationState,
  options: { llm: Llm; prompts: EvaluationPrompts; now: () => string },
): Promise<{ scores: Record<string, number>; calls: LlmCallRecord[] }> {
  const state = JSON.parse(JSON.stringify(fresh)) as EvaluationState;
  advance(state, { kind: 'start', at: options.now() });
  const asks = state.awaiting.filter((a) => a.role === 'evaluator');
  const answers = await Promise.all(asks.map((ask) => options.llm.call(requestFor(ask, state, options.prompts))));
  answers.forEach((answer, i) => {
    advance(state, inputFor(asks[i] as (typeof asks)[number], answer.value, options.now()));
  });
  const scores: Record<string, number> = {};
  for (const c of state.criteria) {
    const s = state.scores[c.id];
    if (s) scores[c.id] = s.score;
  }
  return { scores, calls: answers.flatMap((a) => a.calls) };
}

export function compareWithBaseline(
  doc: FinalSynthesisDocument,
  baseline: { scores: Record<string, number>; costUsd: number },
  debateCostUsd: number,
): BaselineComparison {
  const weights = new Map(doc.categories.map((c) => [c.category, c.weight]));
  const categoryMean = (category: string) => {
    const ids = doc.scores
      .filter((s) => s.category === category)
      .map((s) => baseline.scores[s.criterion] ?? s.initialScore);
    return ids.reduce((a, b) => a + b, 0) / Math.max(1, ids.length);
  };
  const baselineOverall = [...weights].reduce((sum, [category, weight]) => sum + categoryMean(category) * weight, 0);
  return {
    baselineCostUsd: round4(baseline.costUsd),
    debateCostUsd: round4(debateCostUsd),
    baselineOverall: round4(baselineOverall),
    debatedOverall: doc.composites.overallScore,
    criteria: doc.scores.map((s) => {
      const base = baseline.scores[s.criterion] ?? s.initialScore;
      return {
        criterion: s.criterion,
        baselineScore: base,
        debatedScore: s.finalScore,
        delta: round4(s.finalScore - base),
        changedBy: doc.auditTrail.conflicts
          .filter(
            (c) =>
              c.criterion === s.criterion &&
              c.scoreBefore !== null &&
              c.scoreAfter !== null &&
              c.scoreBefore !== c.scoreAfter,
          )
          .map((c) => ({
            round: c.round,
            persona: c.persona,
            severity: c.severity,
            challenge: c.challenge,
            from: c.scoreBefore as number,
            to: c.scoreAfter as number,
          })),
      };
    }),
  };
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
