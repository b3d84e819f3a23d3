import type { EvaluationState } from '../evaluation/state';
import type { EpisodeDraft } from './episode';

/**
 * What a locked evaluation remembers: its recommendation and overall score, the assumptions and
 * open questions it turned on, and its weaknesses (what a later debate or council should look at).
 * An evaluation that did not lock leaves no episode.
 */
export function evaluationEpisode(slug: string, state: EvaluationState): EpisodeDraft | null {
  const doc = state.document;
  if (!doc) return null;
  const n = doc.narrative;
  return {
    task: `${doc.scope === 'TARGETED' ? `Dispute of ${doc.dispute?.criterion ?? 'a criterion'} in the` : 'The'} ${doc.mode} evaluation of "${doc.ideaTitle}"`,
    idea: slug,
    outcome: `${n.recommendation}, overall ${doc.composites.overallScore}/10 at confidence ${doc.composites.overallConfidence} (${doc.lockReason.toLowerCase()})`,
    cruxes: [...n.criticalAssumptions, ...n.unresolvedQuestions],
    keyLearnings: [...n.keyWeaknesses.map((w) => `Weakness: ${w}`), ...n.keyStrengths.map((s) => `Strength: ${s}`)],
  };
}
