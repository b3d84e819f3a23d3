import { resolve } from 'node:path';
import type { IdeaListRow } from '../sqlite/index-sql';
import { initWorkspace } from '../workspace/init-workspace';
import type { SyncReport } from '../workspace/sync-pass';
import { WorkspaceWatcher } from '../workspace/watcher';
import { DebateService } from '../debates/debate-service';
import { Workspace } from '../workspace/workspace';
import type { CommandSpec, ParsedArgs } from './args';
import { captureCommand } from './capture-command';
import { jsonOption, workspaceDir, workspaceOption } from './common';
import type { CliIo } from './io';

export interface Command {
  spec: CommandSpec;
  run(args: ParsedArgs, io: CliIo): Promise<number | undefined> | number | undefined;
}

const json = jsonOption;

/** Opens the workspace and reconciles it with the folder, so every command sees the folder as it is. */
function openSynced(args: ParsedArgs): { ws: Workspace; report: SyncReport } {
  const ws = Workspace.open(workspaceDir(args));
  try {
    return { ws, report: ws.sync() };
  } catch (error) {
    ws.close();
    throw error;
  }
}

function withWorkspace<T>(args: ParsedArgs, body: (ws: Workspace, report: SyncReport) => T): T {
  const { ws, report } = openSynced(args);
  try {
    return body(ws, report);
  } finally {
    ws.close();
  }
}

function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

function syncJson(report: SyncReport) {
  const { slugs: _slugs, ...rest } = report;
  return rest;
}

function describeErrors(errors: { file: string; reason: string }[]): string[] {
  if (errors.length === 0) return [];
  const files = new Set(errors.map((e) => e.file)).size;
  return [
    `${files} file${files === 1 ? '' : 's'} could not be indexed (the rest is):`,
    ...errors.map((e) => `  ${e.file}: ${e.reason}`),
  ];
}

function listJson(idea: IdeaListRow) {
  const { contentHash: _hash, ...rest } = idea;
  return rest;
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export const workspaceCommands: Command[] = [
  {
    spec: {
      name: 'init',
      summary: 'Create a new workspace folder with the sample ideas.',
      usage: 'init DIR',
      positionals: ['DIR'],
      options: { json },
    },
    run(args, io) {
      const { dir, report } = initWorkspace(args.positionals[0] as string);
      if (args.options.json) printJson(io, { workspace: dir, ...syncJson(report) });
      else
        io.out(
          `Created a workspace at ${dir} with ${report.ideas} sample ideas.\nNext: npm run cli -- list --workspace ${dir}`,
        );
      return 0;
    },
  },
  {
    spec: {
      name: 'sync',
      summary: 'Bring the index up to date with the folder (a full reconcile) and report what changed.',
      usage: 'sync --workspace DIR [--json]',
      positionals: [],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws, first) => {
        // A restart that found nothing changed did not wait for the full-text index's check; asked
        // to sync, the command does, and reports the rebuild if that found damage.
        const synced = ws.checkFully() ?? first;
        // Debate logs are read too: one damaged since it was indexed is listed with the idea files.
        const report = { ...synced, errors: [...synced.errors, ...new DebateService(ws).checkLogs()] };
        if (args.options.json) printJson(io, syncJson(report));
        else {
          const note = ws.rebuilt === 'corrupt' ? ' (the index was damaged and has been rebuilt from the folder)' : '';
          io.out(
            [
              `Synced ${report.ideas} ideas, ${report.files} files in ${report.durationMs} ms${note}: ` +
                `${report.added} added, ${report.changed} changed, ${report.removed} removed.`,
              ...describeErrors(report.errors),
            ].join('\n'),
          );
        }
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'watch',
      summary: 'Keep the index following the folder until interrupted (Ctrl-C).',
      usage: 'watch --workspace DIR [--json]',
      positionals: [],
      options: { workspace: workspaceOption, json },
    },
    async run(args, io) {
      const { ws, report } = openSynced(args);
      const print = (kind: string, r: SyncReport) => {
        if (args.options.json) io.out(JSON.stringify({ event: kind, ...syncJson(r), slugs: r.slugs }));
        else {
          const what = [
            ...r.slugs.added.map((s) => `+${s}`),
            ...r.slugs.changed.map((s) => `~${s}`),
            ...r.slugs.removed.map((s) => `-${s}`),
          ];
          io.out(
            `${new Date().toISOString()} ${kind}: ${what.join(' ') || 'no change'} (${r.ideas} ideas, ${r.errors.length} errors)`,
          );
        }
      };
      print('reconciled', report);
      const watcher = new WorkspaceWatcher(ws, {
        onPass: (r) => print('synced', r),
        onError: (e) => io.err(`watch: ${e instanceof Error ? e.message : String(e)}`),
      });
      try {
        await watcher.start();
        if (!args.options.json) io.out(`Watching ${ws.root} (Ctrl-C to stop)`);
        await io.untilStopped();
      } finally {
        await watcher.close();
        ws.close();
      }
      return 0;
    },
  },
  captureCommand,
  {
    spec: {
      name: 'attach',
      summary: "Copy a file into an idea's assets/ folder.",
      usage: 'attach SLUG FILE --workspace DIR [--json]',
      positionals: ['SLUG', 'FILE'],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const result = ws.attach(args.positionals[0] as string, resolve(args.positionals[1] as string));
        if (args.options.json) printJson(io, result);
        else io.out(`Attached as ${result.path}`);
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'list',
      summary: 'List ideas, optionally filtered; also lists files that could not be indexed.',
      usage: 'list --workspace DIR [--stage STAGE] [--type TYPE] [--tag TAG] [--json]',
      positionals: [],
      options: {
        workspace: workspaceOption,
        stage: { type: 'string', value: 'STAGE', description: 'only ideas in this lifecycle stage' },
        type: { type: 'string', value: 'TYPE', description: 'only ideas of this type' },
        tag: { type: 'string', value: 'TAG', description: 'only ideas with this tag' },
        json,
      },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const { stage, type, tag } = args.options as Record<string, string | undefined>;
        const ideas = ws.list({ ...(stage ? { stage } : {}), ...(type ? { type } : {}), ...(tag ? { tag } : {}) });
        const errors = ws.errors();
        if (args.options.json) {
          printJson(io, { ideas: ideas.map(listJson), errors });
          return 0;
        }
        const lines = ideas.map(
          (i) =>
            `${pad(i.slug, 32)} ${pad(i.stage, 10)} ${pad(i.type ?? '—', 10)} ${pad(i.tags.join(','), 28)}${
              i.stale ? ' STALE' : ''
            }`,
        );
        io.out(
          [
            `${pad('SLUG', 32)} ${pad('STAGE', 10)} ${pad('TYPE', 10)} TAGS`,
            ...lines,
            `${ideas.length} idea${ideas.length === 1 ? '' : 's'}`,
            ...describeErrors(errors),
          ].join('\n'),
        );
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'show',
      summary: 'Show one idea: its fields, files, relationships and README.',
      usage: 'show SLUG --workspace DIR [--json]',
      positionals: ['SLUG'],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const idea = ws.show(args.positionals[0] as string);
        if (args.options.json) {
          const { contentHash, ...rest } = idea;
          printJson(io, { ...rest, contentHash });
          return 0;
        }
        io.out(
          [
            `# ${idea.title}`,
            `${idea.slug} · ${idea.type ?? 'untyped'}${idea.secondaryTypes.length ? ` (also ${idea.secondaryTypes.join(', ')})` : ''} · ${idea.stage}${idea.stale ? ' · STALE evaluation' : ''}`,
            idea.tags.length ? `tags: ${idea.tags.join(', ')}` : '',
            idea.summary ? `\n${idea.summary}` : '',
            '',
            'files:',
            ...idea.files.map((f) => `  ${f.path} (${f.kind}, ${f.size} bytes)`),
            ...(idea.relationships.length
              ? [
                  'relationships:',
                  ...idea.relationships.map(
                    (r) => `  ${r.source} —${r.type}→ ${r.target}${r.reason ? `: ${r.reason}` : ''}`,
                  ),
                ]
              : []),
            ...describeErrors(idea.errors),
            '',
            idea.readme.trim(),
          ]
            .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
            .join('\n'),
        );
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'search',
      summary: 'Full-text search over titles, summaries, tags and the text of every idea.',
      usage: 'search "QUERY" --workspace DIR [--json]',
      positionals: ['QUERY'],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const hits = ws.search(args.positionals[0] as string);
        if (args.options.json) printJson(io, { hits });
        else
          io.out(
            hits.length
              ? hits.map((h) => `${pad(h.slug, 32)} ${h.title}\n    ${h.snippet.replace(/\s+/g, ' ')}`).join('\n')
              : 'no match',
          );
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'stage',
      summary: "Move an idea to another lifecycle stage (edits only the README's stage and updated lines).",
      usage: 'stage SLUG STAGE --workspace DIR [--json]',
      positionals: ['SLUG', 'STAGE'],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const result = ws.setStage(args.positionals[0] as string, args.positionals[1] as string);
        if (args.options.json) printJson(io, { ...result, idea: result.idea && listJson(result.idea) });
        else if (result.conflict) {
          io.out(
            `The README changed on disk while it was being updated; your version is kept and the app's is in ${result.path}`,
          );
        } else io.out(`${result.idea?.slug} is now ${result.idea?.stage}`);
        return 0;
      });
    },
  },
  {
    spec: {
      name: 'index',
      summary: 'Regenerate ideas/_index.md from the index.',
      usage: 'index --workspace DIR [--json]',
      positionals: [],
      options: { workspace: workspaceOption, json },
    },
    run(args, io) {
      return withWorkspace(args, (ws) => {
        const result = ws.regenerateIndex();
        if (args.options.json) printJson(io, result);
        else if (result.conflict)
          io.out(`_index.md was edited by hand; kept it and wrote the new one to ${result.path}`);
        else io.out(result.written ? `Wrote ${result.path}` : `${result.path} is up to date`);
        return 0;
      });
    },
  },
];
