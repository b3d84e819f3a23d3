import { listMemory, type MemoryEntry, searchMemory } from '../memory/memory-view';
import type { MirrorProblem } from '../council/council-mirror';
import { UserError } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { jsonOption, openWorkspace, workspaceOption } from './common';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

const USAGE = [
  'memory list [--idea SLUG] [--json]                  every episode, newest first',
  '       memory search QUERY [--idea SLUG] [--limit N] [--json]   the episodes a run on QUERY would read first',
].join('\n');

function print(
  io: CliIo,
  args: ParsedArgs,
  episodes: (MemoryEntry & { similarity?: number })[],
  problems: MirrorProblem[],
) {
  if (args.options.json) {
    io.out(JSON.stringify({ episodes, problems }, null, 2));
    return;
  }
  if (episodes.length === 0) io.out('no episodes (a completed debate, evaluation, arena or council task writes one)');
  for (const e of episodes)
    io.out(
      `${e.key}  ${e.at.slice(0, 10)}  ${e.idea ?? '—'}${e.similarity === undefined ? '' : `  ${e.similarity.toFixed(4)}`}\n  ${e.task} — ${e.outcome}`,
    );
  // A line that is no episode is said, by file and line, never dropped silently.
  for (const p of problems) io.err(`${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.reason}`);
}

/** `memory …`: the episodes every protocol leaves in the workspace's shared memory. */
export const memoryCommands: Command[] = [
  {
    spec: {
      name: 'memory',
      summary: 'The shared memory: what earlier debates, evaluations, arenas and council tasks learned.',
      usage: USAGE,
      positionals: ['SUBCOMMAND?', 'QUERY?'],
      options: {
        idea: {
          type: 'string',
          value: 'SLUG',
          description: "only this idea's episodes (list); this idea's first (search)",
        },
        limit: { type: 'string', value: 'N', description: 'at most N episodes (search)' },
        workspace: workspaceOption,
        json: jsonOption,
      },
    },
    async run(args, io) {
      const [sub, query] = args.positionals;
      const idea = args.options.idea as string | undefined;
      const limitText = args.options.limit as string | undefined;
      const limit = limitText === undefined ? undefined : Number(limitText);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
        throw new UserError(`--limit ${limitText}: a whole number of episodes, 1 or more`);
      if (sub !== 'list' && sub !== 'search')
        throw new UserError(
          sub === undefined
            ? `memory: say what to do\nusage: npm run cli -- ${USAGE}`
            : `memory: unknown subcommand "${sub}" (list, search)`,
        );
      if (sub === 'list' && query !== undefined)
        throw new UserError('memory list takes no query (did you mean memory search?)');
      if (sub === 'search' && !query?.trim())
        throw new UserError('memory search: give the words to look for, e.g. memory search "soil moisture"');
      const ws = openWorkspace(args);
      try {
        if (idea !== undefined && !ws.list().some((i) => i.slug === idea))
          throw new UserError(`no idea "${idea}" in this workspace`);
        const found =
          sub === 'list'
            ? listMemory(ws, idea === undefined ? {} : { idea })
            : searchMemory(ws, query as string, {
                ...(idea === undefined ? {} : { idea }),
                ...(limit === undefined ? {} : { limit }),
              });
        print(io, args, found.episodes, found.problems);
      } finally {
        ws.close();
      }
      return 0;
    },
  },
];
