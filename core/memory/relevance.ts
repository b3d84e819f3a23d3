import { jaccard, lexicalTerms } from '../arena/similarity';
import type { Episode } from './episode';

/**
 * Which earlier episodes a new run reads (COUNCIL-PROTOCOL.md, "Memory"): those of the same idea
 * first, newest first; then the others by the lexical similarity of ARENA-PROTOCOL.md (Jaccard over
 * word unigrams and bigrams) between the run's text and the episode's task, most similar first
 * (ties: newest first). An episode of another idea sharing no term with the run is not relevant
 * at all and is left out; the run itself never reads its own episode.
 */
export const MEMORY_K = 5;
/** Each episode as a brief carries it, at most. */
export const EPISODE_CHARS = 600;

export interface MemoryQuery {
  idea: string | null;
  /** The run's task, topic or question. */
  text: string;
  /** The run's own key, left out (a resumed run whose episode is already written). */
  exclude?: string;
}

export interface ScoredEpisode {
  episode: Episode;
  sameIdea: boolean;
  similarity: number;
}

export function scoreEpisodes(episodes: readonly Episode[], query: MemoryQuery): ScoredEpisode[] {
  const terms = lexicalTerms(query.text);
  return episodes
    .filter((e) => e.key !== query.exclude)
    .map((episode) => ({
      episode,
      sameIdea: query.idea !== null && episode.idea === query.idea,
      similarity: jaccard(terms, lexicalTerms(episode.task)),
    }))
    .filter((s) => s.sameIdea || s.similarity > 0)
    .sort(
      (a, b) =>
        Number(b.sameIdea) - Number(a.sameIdea) ||
        (a.sameIdea ? 0 : b.similarity - a.similarity) ||
        b.episode.at.localeCompare(a.episode.at) ||
        a.episode.key.localeCompare(b.episode.key),
    );
}

export function relevantEpisodes(episodes: readonly Episode[], query: MemoryQuery, k = MEMORY_K): Episode[] {
  return scoreEpisodes(episodes, query)
    .slice(0, Math.max(0, k))
    .map((s) => s.episode);
}

function cut(text: string, max = EPISODE_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * One episode as a brief carries it, at most 600 characters: its key first (what a council proposal
 * cites), the protocol, the day, the idea, what it was about, how it ended, its cruxes, its lessons.
 */
const sentence = (text: string) => (/[.?!…]$/.test(text) ? text : `${text}.`);

export function episodeText(e: Episode): string {
  const on = e.idea ? ` on ideas/${e.idea}` : '';
  const parts = [
    sentence(
      `[${e.key}] ${e.protocol}${on}, ${e.at.slice(0, 10)}: ${e.task.trim()} — ${e.outcome.trim() || 'no outcome'}`,
    ),
  ];
  if (e.cruxes.length > 0) parts.push(sentence(`Cruxes: ${e.cruxes.join(' | ')}`));
  if (e.keyLearnings.length > 0) parts.push(`Lessons: ${e.keyLearnings.join(' ')}`);
  return cut(parts.join(' ').replace(/\s+/g, ' '));
}

/** The lines a run's brief carries: the k most relevant episodes, each cut to 600 characters. */
export function memoryLines(episodes: readonly Episode[], query: MemoryQuery, k = MEMORY_K): string[] {
  return relevantEpisodes(episodes, query, k).map(episodeText);
}

/**
 * The block a brief carries when memory has something (a brief without episodes carries nothing,
 * so it reads exactly as before). Said as memory, not as evidence: a lesson of another run is to be
 * checked against the idea, not quoted as a fact about it.
 */
export function memoryBlock(lines: readonly string[]): string {
  return [
    '# What earlier runs in this workspace learned',
    "Episodes from earlier debates, evaluations, arenas and council tasks, most relevant first. They are the workspace's memory, not evidence about the idea: check a lesson against the idea before you rely on it, and cite an episode by its [key] when you do.",
    lines.map((l) => `- ${l}`).join('\n'),
  ].join('\n\n');
}
