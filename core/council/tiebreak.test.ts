import { describe, expect, it } from 'vitest';
import type { ProposalOutput } from './answers';
import { tiebreakOf, tiebreakWinner } from './tiebreak';
import { STARTING_WEIGHTS } from './values';

const proposal = (justification: Record<string, number>): ProposalOutput => ({
  goal: 'g',
  actions: [{ tool: 'list_ideas', args: {} }],
  valueJustification: Object.fromEntries(
    Object.entries(justification).map(([v, strength]) => [
      v,
      { text: 'a justification long enough to count here', strength },
    ]),
  ),
  expectedOutcomes: [],
  risks: [],
});
const review = (decision: 'approve' | 'reject', values: Record<string, number>) => ({
  decision,
  rationale: 'r',
  concerns: [],
  values,
});

describe('the weight-based tiebreak', () => {
  it("gives the seed's example: exploration and efficiency 1.165 against safety and truth 1.81, the objection wins", () => {
    const t = tiebreakOf(
      'executor',
      proposal({ exploration: 0.8, efficiency: 0.7 }),
      { verifier: review('reject', { safety: 0.9, truth: 1.0 }) },
      STARTING_WEIGHTS,
    );
    expect([t, tiebreakWinner(t)]).toEqual([{ proposal: 1.165, objection: 1.81 }, 'objection']);
  });

  it('puts approvers on the proposal side, each with its own weights, and leaves a gap under 0.1 to the researcher', () => {
    const t = tiebreakOf(
      'integrator',
      proposal({ coherence: 0.8 }),
      { executor: review('approve', { efficiency: 0.4 }), verifier: review('reject', { safety: 1.0 }) },
      STARTING_WEIGHTS,
    );
    // 0.8·0.85 + 0.4·0.75 = 0.98 against 1.0·0.9 = 0.9: 0.08 apart.
    expect([t, tiebreakWinner(t)]).toEqual([{ proposal: 0.98, objection: 0.9 }, null]);
    // Exactly 0.1 apart is a decision (the float difference of 1.2 and 1.1 is not taken for less).
    expect(tiebreakWinner({ proposal: 1.2, objection: 1.1 })).toBe('proposal');
  });
});
