import type { CouncilFiles } from './files-port';
import type { HistoryEntry } from './flags';
import { CONSENSUS_HISTORY, EPISODES, readLines, WEIGHTS_FILE } from './recorder';
import { type Weights, weightOverridesSchema, weightsWith } from './values';

/**
 * What a new council task starts from, read from the council's files: the weights as the last task
 * left them, the tools and targets of the last 5 episodes' proposals with how they ended (for
 * REPEATS_FAILED), and the lines every brief carries: recent episodes and the researcher's
 * precedents, each cut to 600 characters.
 */
export const RECENT_EPISODES = 5;
const LINE_CHARS = 600;

interface EpisodeLine {
  task?: string;
  outcome?: string;
  keyLearnings?: string[];
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

const cut = (text: string) => (text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text);

export function councilStart(files: CouncilFiles): { weights: Weights; history: HistoryEntry[]; memory: string[] } {
  const stored = files.read(WEIGHTS_FILE);
  let weights = weightsWith();
  if (stored) {
    const parsed = weightOverridesSchema.safeParse(JSON.parse(stored.text));
    if (parsed.success) weights = weightsWith(parsed.data);
  }
  const episodes = readLines<EpisodeLine>(files, EPISODES).slice(-RECENT_EPISODES);
  const consensus = readLines<ConsensusLine>(files, CONSENSUS_HISTORY);
  const reverted = new Set(consensus.filter((c) => c.decision === 'reverted').map((c) => c.proposal));
  const history: HistoryEntry[] = [];
  for (const e of episodes)
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
  const memory = [
    ...episodes.map((e) => cut(`Episode: ${e.task ?? ''} — ${e.outcome ?? ''}. ${(e.keyLearnings ?? []).join(' ')}`)),
    ...consensus
      .filter((c) => c.precedent)
      .slice(-RECENT_EPISODES)
      .map((c) =>
        cut(`Precedent: the researcher ${c.decision} "${c.goal ?? c.proposal}"${c.note ? `: ${c.note}` : ''}`),
      ),
  ];
  return { weights, history, memory };
}
