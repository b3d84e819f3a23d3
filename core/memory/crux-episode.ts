import type { DebateHeader } from '../engine/debate-record';
import { buildResult } from '../crux/result';
import type { CruxState } from '../crux/state';
import type { EpisodeDraft } from './episode';

/**
 * What a finished crux debate remembers: its regime, the cruxes it crystallized with who stood
 * where, and its common ground (what the agents agreed on is the lesson a later run can build on).
 */
export function cruxEpisode(header: Pick<DebateHeader, 'topic' | 'ideaSlug'>, state: CruxState): EpisodeDraft {
  const result = buildResult(state);
  const cruxes = result.threads.flatMap((t) => {
    if (!t.crux) return [];
    const sides: Record<string, string[]> = {};
    for (const [agent, p] of Object.entries(t.crux.positions)) sides[p.side] = [...(sides[p.side] ?? []), agent];
    const split = Object.entries(sides)
      .map(([side, agents]) => `${side}: ${agents.join(', ')}`)
      .join('; ');
    return [`${t.crux.question}${split ? ` (${split})` : ''}`];
  });
  const crystallized = cruxes.length;
  return {
    task: header.topic,
    idea: header.ideaSlug,
    outcome: `${result.regime}, ${crystallized} crux${crystallized === 1 ? '' : 'es'} crystallized${result.irreducibleCruxes.length > 0 ? `, ${result.irreducibleCruxes.length} irreducible` : ''}`,
    cruxes,
    keyLearnings: result.commonGround.map((c) => `Agreed: ${c.statement}`),
  };
}
