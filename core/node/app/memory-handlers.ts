import type { memoryChannels } from '../../contract';
import { listMemory, searchMemory } from '../memory/memory-view';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';

/**
 * The handler of core/contract/memory-channels.ts: the shared memory read through the index's
 * mirror of `council/memory/episodes.jsonl` (the same reads as `memory list|search`).
 */
export function memoryHandlers(ctx: AppContext): AreaHandlers<keyof typeof memoryChannels> {
  const { ws, open } = ctx;
  return {
    impl: {
      'memory:list': ({ idea, query, limit }) => {
        open();
        if (idea !== undefined && !ws.list().some((i) => i.slug === idea))
          throw new UserError(`no idea "${idea}" in this workspace`);
        const found =
          query === undefined
            ? listMemory(ws, idea === undefined ? {} : { idea })
            : searchMemory(ws, query, idea === undefined ? {} : { idea });
        return {
          episodes: found.episodes.slice(0, limit ?? found.episodes.length),
          total: found.episodes.length,
          problems: found.problems,
        };
      },
    },
  };
}
