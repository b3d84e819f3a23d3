import { protocolSimulator } from '../sim/registry';
import { decideLexically } from './decision';
import type { CaptureBrief, PlacementAnswer } from './placement-request';

/**
 * The simulator's placement: the lexical rule applied to the candidates it was shown (the best five
 * of the library, which are all the rule ever looks at), so offline the model's path decides as the
 * lexical one does and the two can be compared.
 */
export function simulatePlacement(brief: CaptureBrief): PlacementAnswer {
  const decided = decideLexically(brief.candidates, brief.terms, '');
  return {
    decision: decided.decision,
    slug: decided.slug,
    candidates: decided.decision === 'AMBIGUOUS' ? decided.candidates.map((c) => c.slug) : [],
    inspiredBy: decided.inspiredBy,
    reason: `[simulated] ${decided.reason}.`,
  };
}

/** The placement brief's answer, registered in `core/sim/simulators.ts`. */
export const captureSimulator = protocolSimulator<CaptureBrief>('capture', {
  placement: (_seed, brief) => simulatePlacement(brief),
});
