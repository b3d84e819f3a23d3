import type { CouncilFiles } from '../../council/files-port';
import { type Episode, type EpisodeDraft, EPISODES_FILE, episodeLine, parseEpisodes } from '../../memory/episode';
import { appendOnce } from '../../memory/jsonl';
import { MEMORY_K, type MemoryQuery, memoryLines } from '../../memory/relevance';
import { nodeCouncilFiles } from '../council/council-files';

/**
 * The workspace's shared memory on disk: `council/memory/episodes.jsonl`, written through the
 * workspace's safe writes (atomic, made against the bytes read, never over another writer's line)
 * and read by every protocol's service when it starts a run.
 */
export interface WorkspaceMemory {
  /** Every episode in file order, and the lines that are none (by number). */
  read(): { episodes: Episode[]; skipped: { line: number; reason: string }[] };
  /** Appends a finished run's episode once: a resumed run that finishes again writes nothing more. */
  record(protocol: string, runId: string, draft: EpisodeDraft): void;
  /** The lines a new run's brief carries: the k most relevant episodes, each cut to 600 characters. */
  linesFor(query: MemoryQuery, k?: number): string[];
}

export function workspaceMemory(root: string, files?: CouncilFiles): WorkspaceMemory {
  const port = files ?? nodeCouncilFiles(root, { stages: [] });
  const read = () => parseEpisodes(port.read(EPISODES_FILE)?.text ?? '');
  return {
    read,
    record(protocol, runId, draft) {
      appendOnce(port, EPISODES_FILE, [episodeLine(protocol, runId, port.now(), draft)]);
    },
    linesFor(query, k = MEMORY_K) {
      return memoryLines(read().episodes, query, k);
    },
  };
}
