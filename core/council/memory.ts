import { parseEpisodes } from '../memory/episode';
import { readLines } from '../memory/jsonl';
import { EPISODE_CHARS, MEMORY_K, memoryLines } from '../memory/relevance';
import type { CouncilFiles } from './files-port';
import type { HistoryEntry } from './flags';
import { CONSENSUS_HISTORY, EPISODES, WEIGHTS_FILE } from './recorder';
import { type Weights, weightOverridesSchema, weightsWith } from './values';

/**
 * What a new council task starts from, read from the council's files: the weights as the last task
 * left them, the tools and targets of the last 5 council episodes' proposals with how they ended
 * (for REPEATS_FAILED), and the lines every brief carries: the k most relevant episodes of every
 * protocol (core/memory/relevance.ts: the same idea first, then the most alike task) and the
 * researcher's last precedents, each cut to 600 characters.
 */
export const RECENT_EPISODES = 5;

interface CouncilEpisodeLine {
  protocol?: string;
  proposals?: { id: string; status?: string; actions?: { tool: string; target: string | null }[] }[];
  id?: string;
}

interface ConsensusLine {
  proposal?: string;
  goal?: string;
  decision?: string;
  precedent?: boolean;
  note?: string | null;
}

const cut = (text: string) => (text.length > EPISODE_CHARS ? `${text.slice(0, EPISODE_CHARS - 1)}…` : text);

export function councilStart(
  files: CouncilFiles,
  query: { idea: string | null; task: string },
  k = MEMORY_K,
): { weights: Weights; history: HistoryEntry[]; memory: string[] } {
  const stored = files.read(WEIGHTS_FILE);
  let weights = weightsWith();
  if (stored) {
    const parsed = weightOverridesSchema.safeParse(JSON.parse(stored.text));
    if (parsed.success) weights = weightsWith(parsed.data);
  }
  // The file holds every protocol's episodes; REPEATS_FAILED looks at the council's own.
  const councils = readLines<CouncilEpisodeLine>(files, EPISODES)
    .filter((e) => (e.protocol ?? 'council') === 'council')
    .slice(-RECENT_EPISODES);
  const consensus = readLines<ConsensusLine>(files, CONSENSUS_HISTORY);
  const reverted = new Set(consensus.filter((c) => c.decision === 'reverted').map((c) => c.proposal));
  const history: HistoryEntry[] = [];
  for (const e of councils)
    for (const p of e.proposals ?? []) {
      const outcome: HistoryEntry['outcome'] = reverted.has(`${e.id}-${p.id}`)
        ? 'reverted'
        : p.status === 'REJECTED'
          ? 'rejected'
          : p.status === 'FAILED'
            ? 'failed'
            : 'recorded';
      for (const a of p.actions ?? []) if (a.target) history.push({ tool: a.tool, target: a.target, outcome });
    }
  const { episodes } = parseEpisodes(files.read(EPISODES)?.text ?? '');
  const memory = [
    ...memoryLines(episodes, { idea: query.idea, text: query.task }, k),
    ...consensus
      .filter((c) => c.precedent)
      .slice(-RECENT_EPISODES)
      .map((c) =>
        cut(`Precedent: the researcher ${c.decision} "${c.goal ?? c.proposal}"${c.note ? `: ${c.note}` : ''}`),
      ),
  ];
  return { weights, history, memory };
}
