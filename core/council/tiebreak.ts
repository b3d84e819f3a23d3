import { approves, type ProposalOutput, type ReviewOutput } from './answers';
import { type CouncilAgent, type CouncilValue, round, type Weights } from './values';

/** Below this difference between the two sides' alignments, the tiebreak is no decision: the researcher's. */
export const TIE_MARGIN = 0.1;

export interface Tiebreak {
  proposal: number;
  objection: number;
}

/** Σ over the values a position invokes of the strength it claims × its agent's weight for that value. */
function alignment(agent: CouncilAgent, strengths: Partial<Record<CouncilValue, number>>, weights: Weights): number {
  let sum = 0;
  for (const [value, strength] of Object.entries(strengths) as [CouncilValue, number][])
    sum += strength * weights[agent][value];
  return sum;
}

/**
 * The weight-based tiebreak over one round: the proposal's side is its author (invoking the version's
 * justification) and every reviewer who approved; the objection's side every reviewer who rejected.
 * Example: executor exploration 0.8·0.8 + efficiency 0.7·0.75 = 1.165 against verifier safety
 * 0.9·0.9 + truth 1.0·1.0 = 1.81.
 */
export function tiebreakOf(
  author: CouncilAgent,
  version: ProposalOutput,
  reviews: Partial<Record<CouncilAgent, ReviewOutput>>,
  weights: Weights,
): Tiebreak {
  const own: Partial<Record<CouncilValue, number>> = {};
  for (const [value, j] of Object.entries(version.valueJustification) as [CouncilValue, { strength: number }][])
    own[value] = j.strength;
  let proposal = alignment(author, own, weights);
  let objection = 0;
  for (const [agent, review] of Object.entries(reviews) as [CouncilAgent, ReviewOutput][]) {
    const side = alignment(agent, review.values, weights);
    if (approves(review.decision)) proposal += side;
    else objection += side;
  }
  return { proposal: round(proposal), objection: round(objection) };
}

/** Which side the tiebreak gives the decision to, or null when the sides are too close to call. */
export function tiebreakWinner(t: Tiebreak, margin = TIE_MARGIN): 'proposal' | 'objection' | null {
  if (round(Math.abs(t.proposal - t.objection)) < margin) return null;
  return t.proposal > t.objection ? 'proposal' : 'objection';
}
