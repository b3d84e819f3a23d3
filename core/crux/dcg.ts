import { isValidFalsifier } from './falsifier';
import type { AgentProfile, CruxRecord, Dcg, FinalPosition } from './state';

// Disagreement Compression Gain: how much of the debate a crux captures (coverage), how evenly it
// splits it (polarity) and how strongly the split is held (impact). Values stay unrounded here.

export function computeDcg(
  agents: readonly AgentProfile[],
  positions: Readonly<Record<string, FinalPosition>>,
  counterfactual: CruxRecord['counterfactual'],
): Dcg {
  const all = agents.map((a) => ({ id: a.id, pos: positions[a.id] })).filter((x) => x.pos !== undefined);
  const covered = all.filter(
    ({ id, pos }) =>
      pos !== undefined &&
      (pos.side === 'YES' || pos.side === 'NO') &&
      pos.falsifier !== undefined &&
      isValidFalsifier(pos.falsifier) &&
      counterfactual[id]?.wouldFlip === true,
  );
  const coverage = agents.length === 0 ? 0 : covered.length / agents.length;

  // Polarity counts every final position, not just the covered ones.
  const yes = all.filter((x) => x.pos?.side === 'YES').length;
  const no = all.filter((x) => x.pos?.side === 'NO').length;
  const polarity = yes + no === 0 ? 0 : (2 * Math.min(yes, no)) / (yes + no);

  const impact =
    covered.length === 0 ? 0 : covered.reduce((sum, x) => sum + (x.pos?.confidence ?? 0), 0) / covered.length;

  return { coverage, polarity, impact, score: coverage * polarity * impact };
}
