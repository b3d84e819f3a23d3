import { isValidFalsifier } from './falsifier';
import { hasVagueWord, isMeasurementQuestion } from './keywords';
import type { AgentProfile, CruxRecord, FinalPosition } from './state';

// A crystallized crux only counts as irreducible when it is a real, decision-relevant split that
// could be settled. Every failing test is reported, so a UI can say what is missing.

export interface ValidationInput {
  question: string;
  positions: Readonly<Record<string, FinalPosition>>;
  resolutionCriteria: readonly string[];
  counterfactual: CruxRecord['counterfactual'];
}

export function validateCrux(agents: readonly AgentProfile[], crux: ValidationInput): string[] {
  const failures: string[] = [];
  const positioned = agents.filter((a) => crux.positions[a.id] !== undefined);
  const sides = positioned.map((a) => crux.positions[a.id]?.side);

  if (!sides.includes('YES') || !sides.includes('NO')) failures.push('NO_SPLIT');
  if (crux.resolutionCriteria.length < 2) failures.push('FEW_CRITERIA');
  if (crux.resolutionCriteria.some(hasVagueWord)) failures.push('VAGUE_CRITERION');

  const flippers = agents.filter((a) => crux.counterfactual[a.id]?.wouldFlip === true).length;
  if (flippers < 2) failures.push('NOT_DECISION_RELEVANT');

  if (isMeasurementQuestion(crux.question)) failures.push('MEASUREMENT_QUESTION');

  for (const a of positioned) {
    const f = crux.positions[a.id]?.falsifier;
    if (f !== undefined && !isValidFalsifier(f)) failures.push(`VAGUE_FALSIFIER:${a.id}`);
  }
  return failures;
}
