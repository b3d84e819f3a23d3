import { z } from 'zod';
import { parseLines } from './jsonl';

/**
 * An episode: what one finished run of any protocol (a crux debate, an evaluation, an arena, a
 * council task) leaves in the workspace's shared memory, one line of `council/memory/episodes.jsonl`.
 * Every protocol writes the same core (what it was about, how it ended, its cruxes, its lessons);
 * a council task adds its proposals, rounds and weights, which only the council reads.
 */
export const EPISODES_FILE = 'council/memory/episodes.jsonl';

/** What a protocol says of a finished run; the service that ran it adds who, when and the key. */
export interface EpisodeDraft {
  /** What the run was about: a debate's topic, an evaluation's idea, an arena's question, a task. */
  task: string;
  idea: string | null;
  /** How it ended, in a few words (a recommendation and score, a winner, a status). */
  outcome: string;
  /** The questions it turned on. */
  cruxes: string[];
  /** What a later run should know. */
  keyLearnings: string[];
}

export const episodeSchema = z
  .object({
    /** `<protocol>:<run id>`: one line per run, however often the run is resumed. */
    key: z.string().min(1),
    id: z.string().min(1),
    protocol: z.string().min(1),
    at: z.string(),
    task: z.string(),
    idea: z.string().nullable().default(null),
    outcome: z.string().default(''),
    cruxes: z.array(z.string()).default([]),
    keyLearnings: z.array(z.string()).default([]),
  })
  .passthrough();
export type Episode = z.infer<typeof episodeSchema>;

export function episodeKey(protocol: string, runId: string): string {
  return `${protocol}:${runId}`;
}

/** The line a finished run appends. */
export function episodeLine(protocol: string, runId: string, at: string, draft: EpisodeDraft): Episode {
  return {
    key: episodeKey(protocol, runId),
    id: runId,
    protocol,
    at,
    task: draft.task,
    idea: draft.idea,
    outcome: draft.outcome,
    cruxes: draft.cruxes,
    keyLearnings: draft.keyLearnings,
  };
}

/** The episodes of the file's text, in file order; lines that are no episode are reported by number. */
export function parseEpisodes(text: string): { episodes: Episode[]; skipped: { line: number; reason: string }[] } {
  const { numbered, bad } = parseLines<unknown>(text);
  const episodes: Episode[] = [];
  const skipped = [...bad];
  for (const { line, value } of numbered) {
    const parsed = episodeSchema.safeParse(value);
    if (parsed.success) episodes.push(parsed.data);
    else
      skipped.push({
        line,
        reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; '),
      });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { episodes, skipped };
}
