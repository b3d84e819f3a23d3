import { TRANSCRIPT_KINDS, TRANSCRIPT_MOVES, type TranscriptKind } from '../../contract';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import type { Command } from './workspace-commands';

function kindOf(value: string | undefined, where: string): TranscriptKind | undefined {
  if (value === undefined) return undefined;
  if (!TRANSCRIPT_KINDS.includes(value as TranscriptKind)) {
    throw new UserError(`${where} must be one of ${TRANSCRIPT_KINDS.join(', ')}, not "${value}"`);
  }
  return value as TranscriptKind;
}

function limitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new UserError(`--limit must be a whole number, not "${String(value)}"`);
  return n;
}

/** Past debates and evaluations as the transcripts view lists, opens and searches them. */
export const transcriptCommands: Command[] = [
  {
    spec: {
      name: 'transcripts',
      summary: 'List, show or search the transcripts of debates and evaluations.',
      usage:
        'transcripts (list | show debate|evaluation ID | search [WORDS] [--agent A] [--move M] [--idea SLUG] [--kind K] [--from DAY] [--to DAY]) --workspace DIR [--json]',
      positionals: ['ACTION', 'ARG?', 'ID?'],
      options: {
        workspace: workspaceOption,
        kind: { type: 'string', value: 'KIND', description: 'search only debate or only evaluation transcripts' },
        agent: { type: 'string', value: 'A', description: 'only what this agent said (its id or name)' },
        move: { type: 'string', value: 'M', description: `only this move (${TRANSCRIPT_MOVES.join(', ')})` },
        idea: { type: 'string', value: 'SLUG', description: 'only transcripts about this idea' },
        from: { type: 'string', value: 'DAY', description: 'only messages from this day on (YYYY-MM-DD)' },
        to: { type: 'string', value: 'DAY', description: 'only messages up to this day (YYYY-MM-DD)' },
        limit: { type: 'string', value: 'N', description: 'at most this many hits (default 200)' },
        json: jsonOption,
      },
    },
    run(args, io) {
      const [action, arg, id] = args.positionals;
      if (action !== 'list' && action !== 'show' && action !== 'search') {
        throw new UserError('transcripts: the action is list, show or search');
      }
      if (action === 'list' && arg !== undefined) throw new UserError(`transcripts list: unexpected "${arg}"`);
      if (action === 'search' && id !== undefined) {
        throw new UserError('transcripts search: put the words in quotes ("word word")');
      }
      if (action === 'show' && (arg === undefined || id === undefined)) {
        throw new UserError('transcripts show: which one? (transcripts show debate|evaluation ID)');
      }
      return withApp(args, async (app) => {
        if (action === 'list') {
          const { transcripts } = await call(app, 'transcripts:list', {});
          if (args.options.json) io.out(JSON.stringify({ transcripts }, null, 2));
          else {
            io.out(
              transcripts
                .map(
                  (t) =>
                    `${t.kind.padEnd(10)} ${t.id}  ${t.status.padEnd(9)} ${String(t.messages).padStart(4)}  ${t.title}`,
                )
                .join('\n') || 'no transcripts yet',
            );
          }
          return 0;
        }
        if (action === 'show') {
          const shown = await call(app, 'transcripts:get', {
            kind: kindOf(arg, 'the kind') as TranscriptKind,
            id: id as string,
          });
          if (args.options.json) io.out(JSON.stringify(shown, null, 2));
          else {
            const names = new Map(shown.agents.map((a) => [a.id, a.name]));
            const lines =
              shown.kind === 'debate'
                ? shown.transcript.map(
                    (m) =>
                      `[${m.index}] ${m.thread} ${names.get(m.agent ?? '') ?? m.agent ?? 'moderator'} ${m.move ?? m.kind}: ${m.content}`,
                  )
                : shown.entries.map(
                    (e) => `[${e.seq}] ${e.agent ?? 'protocol'}: ${e.title}${e.text ? `\n    ${e.text}` : ''}`,
                  );
            io.out([`${shown.title} (${shown.kind} ${shown.id}, ${shown.status})`, ...lines].join('\n'));
          }
          return 0;
        }
        const found = await call(app, 'transcripts:search', {
          ...(arg !== undefined ? { text: arg } : {}),
          ...(args.options.kind !== undefined ? { kind: kindOf(args.options.kind as string, '--kind') } : {}),
          ...(args.options.agent !== undefined ? { agent: args.options.agent as string } : {}),
          ...(args.options.move !== undefined ? { move: args.options.move as (typeof TRANSCRIPT_MOVES)[number] } : {}),
          ...(args.options.idea !== undefined ? { ideaSlug: args.options.idea as string } : {}),
          ...(args.options.from !== undefined ? { from: args.options.from as string } : {}),
          ...(args.options.to !== undefined ? { to: args.options.to as string } : {}),
          ...(limitOf(args.options.limit) !== undefined ? { limit: limitOf(args.options.limit) } : {}),
        });
        if (args.options.json) io.out(JSON.stringify(found, null, 2));
        else {
          io.out(
            [
              ...found.hits.map(
                (h) =>
                  `${h.kind} ${h.id} #${h.index} ${h.agentName ?? h.agent ?? '—'} ${h.move ?? ''} ${h.at}: ${h.snippet}`,
              ),
              `${found.total} hit(s)${found.truncated ? `, the first ${found.hits.length} shown` : ''}`,
            ].join('\n'),
          );
        }
        return 0;
      });
    },
  },
];
