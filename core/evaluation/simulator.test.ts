import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import type { EvaluationInput } from './inputs';
import { simulateEvaluation } from './simulator';
import { fourCriteria, SETUP } from './test-setup';
import type { Mode } from './vocabulary';

// The offline simulator: plausible, valid, labelled and deterministic.

const taxonomy = fourCriteria();
const run = (mode: Mode, seed: number) => simulateEvaluation({ ...SETUP, mode }, taxonomy, seed);

/** Every piece of prose in an input's answer (ids, enums and numbers are not prose). */
function prose(input: EvaluationInput): string[] {
  switch (input.kind) {
    case 'evaluator':
      return input.answer.scores.map((s) => s.reasoning);
    case 'redteam':
      return input.answer.challenges.map((c) => c.challenge);
    case 'defense':
      return [input.answer.response];
    case 'arbiter':
      return [input.answer.reasoning, ...input.answer.fallacies];
    case 'synthesis':
      return [
        ...input.answer.criteria.flatMap((c) => [c.prevailingPosition, c.resolutionReasoning, ...c.openQuestions]),
        ...input.answer.newInsights,
      ];
    case 'narrative': {
      const n = input.answer;
      return [
        n.executiveSummary,
        n.recommendationReasoning,
        ...n.keyStrengths,
        ...n.keyWeaknesses,
        ...n.criticalAssumptions,
        ...n.unresolvedQuestions,
      ];
    }
    default:
      return [];
  }
}

describe('the evaluation simulator', () => {
  it('locks every mode with a sensible reason', () => {
    const outcomes = (mode: Mode) =>
      [1, 2, 3, 4, 5, 6].map((seed) => {
        const doc = run(mode, seed).state.document;
        return `${doc?.lockReason}@${doc?.rounds}`;
      });
    // One round can never show two stable rounds: quick always stops at its limit.
    expect(outcomes('quick')).toEqual(Array(6).fill('MAX_ROUNDS@1'));
    for (const outcome of outcomes('standard'))
      expect(['CONVERGENCE@2', 'CONVERGENCE@3', 'MAX_ROUNDS@3']).toContain(outcome);
    for (const outcome of outcomes('deep')) expect(outcome).toMatch(/^(CONVERGENCE@[2-5]|MAX_ROUNDS@5)$/);
    expect(outcomes('deep').some((o) => o.startsWith('CONVERGENCE'))).toBe(true);
  });

  it('is deterministic for a seed and varies between seeds', () => {
    expect(run('standard', 7)).toEqual(run('standard', 7));
    expect(run('standard', 7).state.document).not.toEqual(run('standard', 8).state.document);
  });

  it('labels every text it writes', () => {
    const inputs = [1, 2].flatMap((seed) => run('deep', seed).inputs);
    const texts = inputs.flatMap(prose);
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((t) => !t.startsWith('[simulated] '))).toEqual([]);
  });

  it('varies scores, aims at the proposed targets, repeats itself now and then, and mixes rulings', () => {
    const runs = [1, 2, 3, 4].map((seed) => run('deep', seed));
    const docs = runs.map((r) => r.state.document);
    const initial = new Set(docs.flatMap((d) => d?.scores.map((s) => s.initialScore) ?? []));
    expect(initial.size).toBeGreaterThan(3);
    for (const r of runs) {
      for (const c of r.state.challenges) {
        expect(r.state.rounds.find((x) => x.round === c.round)?.targets).toContain(c.criterion);
      }
    }
    const summaries = docs.flatMap((d) => d?.auditTrail.roundSummaries ?? []);
    expect(summaries.some((s) => s.repeats > 0)).toBe(true);
    const winners = new Set(docs.flatMap((d) => d?.auditTrail.conflicts.map((c) => c.ruling?.winner) ?? []));
    expect([...winners].sort()).toEqual(['DRAW', 'EVALUATOR', 'RED_TEAM']);
  });

  it('converges over the rounds: fewer red-team wins and fewer new insights as it goes', () => {
    const summaries = [1, 2, 3, 4, 5].flatMap(
      (seed) => run('deep', seed).state.document?.auditTrail.roundSummaries ?? [],
    );
    const byRound = (round: number) => summaries.filter((s) => s.round === round);
    const sum = (round: number, key: 'redTeamWins' | 'exchanges') => byRound(round).reduce((n, s) => n + s[key], 0);
    expect(sum(1, 'redTeamWins') / sum(1, 'exchanges')).toBeGreaterThan(sum(3, 'redTeamWins') / sum(3, 'exchanges'));
    const insights = (round: number) =>
      byRound(round).reduce((n, s) => n + s.newInsights.length, 0) / byRound(round).length;
    expect(insights(1)).toBeGreaterThan(insights(3));
  });

  it('works on any taxonomy, however small', () => {
    const doc = simulateEvaluation({ ...SETUP, mode: 'standard' }, testTaxonomy(), 3).state.document;
    expect(doc?.scores.map((s) => s.criterion)).toEqual(['problem-clarity', 'execution-risk']);
    expect(doc?.locked).toBe(true);
  });
});
