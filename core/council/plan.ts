import type { CallPlan } from '../engine/cost-plan';

/**
 * How many calls a council task makes, before it starts, by answer shape (the token table's kind):
 * a simple task likely takes six — the executor's proposal and its "done", the verifier's and the
 * integrator's reviews, the verifier's review of the outcome, the integrator's episode — and never
 * more than the task's call limit (`maxCalls`, 50 by default), after which the researcher decides.
 * The worst case prices every one of those calls as a proposal, the largest answer.
 */
export function planCouncil(input: { maxCalls: number }): CallPlan {
  return {
    protocol: 'council',
    size: 3,
    calls: [
      { kind: 'council_next_proposal', tier: 'standard', likely: 2, worst: 0 },
      { kind: 'council_review', tier: 'fast', likely: 1, worst: 0 },
      { kind: 'council_review', tier: 'standard', likely: 1, worst: 0 },
      { kind: 'council_outcome', tier: 'fast', likely: 1, worst: 0 },
      { kind: 'council_episode', tier: 'standard', likely: 1, worst: 0 },
      { kind: 'council_proposal', tier: 'standard', likely: 0, worst: input.maxCalls },
    ],
    basis: `about 6 calls for a simple task (a proposal, two reviews, the outcome's review, the episode); at most ${input.maxCalls} calls (the task's limit, after which you decide)`,
  };
}
