import { type Episode, episodeSchema } from '../../memory/episode';
import { episodeText, scoreEpisodes } from '../../memory/relevance';
import { councilMirror, type MirrorProblem } from '../council/council-mirror';
import type { Workspace } from '../workspace/workspace';

/**
 * The shared memory as the researcher reads it (`memory list|search`, the memory panel): every
 * episode of every protocol, from the index's mirror of `council/memory/episodes.jsonl` (read
 * again from the file whenever it changed).
 */
export interface MemoryEntry {
  key: string;
  protocol: string;
  runId: string;
  idea: string | null;
  at: string;
  task: string;
  outcome: string;
  cruxes: string[];
  keyLearnings: string[];
  /** The episode as a brief carries it (at most 600 characters). */
  text: string;
}

export interface MemoryHit extends MemoryEntry {
  sameIdea: boolean;
  /** Lexical similarity (Jaccard of unigrams and bigrams) of the query and the episode's task, 4 decimals. */
  similarity: number;
}

function entryOf(e: Episode): MemoryEntry {
  return {
    key: e.key,
    protocol: e.protocol,
    runId: e.id,
    idea: e.idea,
    at: e.at,
    task: e.task,
    outcome: e.outcome,
    cruxes: e.cruxes,
    keyLearnings: e.keyLearnings,
    text: episodeText(e),
  };
}

function episodes(ws: Workspace): { episodes: Episode[]; problems: MirrorProblem[] } {
  const { mirror, problems } = councilMirror(ws.root, ws.db);
  return {
    episodes: mirror.episodes.map((row) => episodeSchema.parse(JSON.parse(row.episodeJson))),
    problems: problems.filter((p) => p.file.endsWith('episodes.jsonl')),
  };
}

/** Every episode, newest first; of one idea with `idea`. */
export function listMemory(
  ws: Workspace,
  filter: { idea?: string } = {},
): { episodes: MemoryEntry[]; problems: MirrorProblem[] } {
  const all = episodes(ws);
  return {
    episodes: all.episodes
      .filter((e) => filter.idea === undefined || e.idea === filter.idea)
      .sort((a, b) => b.at.localeCompare(a.at) || a.key.localeCompare(b.key))
      .map(entryOf),
    problems: all.problems,
  };
}

/**
 * The episodes relevant to `query`, ranked as a run's brief ranks them (the idea's first, then by
 * lexical similarity to the query; an episode of another idea sharing no word is left out).
 */
export function searchMemory(
  ws: Workspace,
  query: string,
  options: { idea?: string; limit?: number } = {},
): { episodes: MemoryHit[]; problems: MirrorProblem[] } {
  const all = episodes(ws);
  const scored = scoreEpisodes(all.episodes, { idea: options.idea ?? null, text: query });
  return {
    episodes: scored.slice(0, options.limit ?? scored.length).map((s) => ({
      ...entryOf(s.episode),
      sameIdea: s.sameIdea,
      similarity: Math.round(s.similarity * 1e4) / 1e4,
    })),
    problems: all.problems,
  };
}
