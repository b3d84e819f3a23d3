import type { ArenaSetup } from '../arena/live/setup';
import { arenaResult } from '../arena/result';
import { type ArenaState, currentProposal } from '../arena/state';
import type { EpisodeDraft } from './episode';

/**
 * What a finished arena remembers: how it ended and who won with what, whether its consensus was
 * hollow, and the winning proposal's summary. An arena that stopped short leaves no episode.
 */
export function arenaEpisode(
  setup: Pick<ArenaSetup, 'question'>,
  state: ArenaState,
  idea: string | null,
): EpisodeDraft | null {
  const result = arenaResult(state);
  if (!result) return null;
  const winner = result.judge.ranking[0] ?? '';
  const best = currentProposal(state, winner);
  const hollow = result.hollow?.detected ? [`The consensus was hollow: ${result.hollow.reasons.join('; ')}`] : [];
  return {
    task: setup.question,
    idea,
    outcome: `${result.outcome}, ${winner} first${best ? ` with "${best.title}"` : ''}`,
    cruxes: hollow,
    keyLearnings: best ? [`The winning proposal: ${best.summary}`] : [],
  };
}
