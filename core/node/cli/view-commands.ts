import { PERSONA_ROLES } from '../../personas/persona';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import { readConfigFile, validated } from './config-file';
import { channels } from '../../contract';
import type { Command } from './workspace-commands';

const workspace = workspaceOption;
const json = jsonOption;

/**
 * What the app's other views read (the problems panel, taxonomy, personas, the graph, an idea's
 * files and questions) and its settings page: each one channel of the contract, printed as a few
 * lines or, with --json, as the channel answers.
 */
export const viewCommands: Command[] = [
  {
    spec: {
      name: 'errors',
      summary: 'Every file the app could not take in: idea files, debate logs, persona files.',
      usage: 'errors --workspace DIR [--json]',
      positionals: [],
      options: { workspace, json },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const { errors } = await call(app, 'workspace:errors', {});
        io.out(
          args.options.json
            ? JSON.stringify({ errors }, null, 2)
            : errors.map((e) => `${e.source.padEnd(8)} ${e.file}: ${e.reason}`).join('\n') || 'no problems',
        );
        return 0;
      }),
  },
  {
    spec: {
      name: 'taxonomy',
      summary: 'Lifecycle stages, idea types, evaluation categories with their criteria, and the tag vocabulary.',
      usage: 'taxonomy --workspace DIR [--json]',
      positionals: [],
      options: { workspace, json },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const t = await call(app, 'taxonomy:get', {});
        if (args.options.json) io.out(JSON.stringify(t, null, 2));
        else {
          const names = (list: readonly unknown[]) =>
            list.map((x) => (typeof x === 'string' ? x : String((x as { id?: unknown }).id))).join(', ');
          io.out(
            Object.entries(t)
              .map(([key, value]) => `${key}: ${Array.isArray(value) ? names(value) : JSON.stringify(value)}`)
              .join('\n'),
          );
        }
        return 0;
      }),
  },
  {
    spec: {
      name: 'personas',
      summary: 'The built-in and workspace personas (a workspace file replaces the built-in one with its id).',
      usage: `personas --workspace DIR [--role ${PERSONA_ROLES.join('|')}] [--json]`,
      positionals: [],
      options: {
        workspace,
        role: { type: 'string', value: 'ROLE', description: `only ${PERSONA_ROLES.join(', ')}` },
        json,
      },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const role = args.options.role as (typeof PERSONA_ROLES)[number] | undefined;
        const out = await call(app, 'personas:list', role !== undefined ? { role } : {});
        io.out(
          args.options.json
            ? JSON.stringify(out, null, 2)
            : [
                ...out.personas.map((p) => `${p.id.padEnd(28)} ${p.role.padEnd(10)} ${p.name}`),
                ...out.errors.map((e) => `${e.file}: ${e.reason}`),
              ].join('\n'),
        );
        return 0;
      }),
  },
  {
    spec: {
      name: 'relationships',
      summary: 'Every relationship between ideas (what the graph view draws).',
      usage: 'relationships --workspace DIR [--json]',
      positionals: [],
      options: { workspace, json },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const { relationships } = await call(app, 'ideas:relationships', {});
        io.out(
          args.options.json
            ? JSON.stringify({ relationships }, null, 2)
            : relationships
                .map((r) => `${r.source} ${r.type} → ${r.target}${r.reason ? `: ${r.reason}` : ''}`)
                .join('\n') || 'no relationships yet',
        );
        return 0;
      }),
  },
  {
    spec: {
      name: 'file',
      summary: 'Print one text file of an idea (a note, development.md …) by its workspace-relative path.',
      usage: 'file SLUG PATH --workspace DIR [--json]',
      positionals: ['SLUG', 'PATH'],
      options: { workspace, json },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const [slug, path] = args.positionals as [string, string];
        const file = await call(app, 'ideas:file', { slug, path });
        io.out(
          args.options.json
            ? JSON.stringify(file, null, 2)
            : `${file.text}${file.truncated ? '\n[… cut at 512 KiB]' : ''}`,
        );
        return 0;
      }),
  },
  {
    spec: {
      name: 'questions',
      summary: "An idea's development questions (its development.md) and their answers.",
      usage: 'questions SLUG --workspace DIR [--json]',
      positionals: ['SLUG'],
      options: { workspace, json },
    },
    run: (args, io) =>
      withApp(args, async (app) => {
        const q = await call(app, 'ideas:questions', { slug: args.positionals[0] as string });
        io.out(
          args.options.json
            ? JSON.stringify(q, null, 2)
            : q.questions
                .map((x) => `${String(x.number).padStart(2)}. ${x.answer === null ? '[ ]' : '[x]'} ${x.question}`)
                .join('\n') || 'no questions yet (ask them with: develop SLUG)',
        );
        return 0;
      }),
  },
  {
    spec: {
      name: 'settings',
      summary: 'Show the settings as they apply (provider, models, prices, budgets), or change them from a file.',
      usage: 'settings (show | set --config FILE) --workspace DIR [--json]',
      positionals: ['ACTION'],
      options: {
        workspace,
        config: {
          type: 'string',
          value: 'FILE',
          description:
            'set: the changes, JSON or YAML, as the settings page sends them (provider, debateBudgetUsd, tiers …)',
        },
        json,
      },
    },
    run: (args, io) => {
      const [action] = args.positionals;
      if (action !== 'show' && action !== 'set') throw new UserError('settings: the action is show or set');
      const path = args.options.config as string | undefined;
      if (action === 'set' && path === undefined)
        throw new UserError('settings set: give the changes with --config FILE');
      if (action === 'show' && path !== undefined) throw new UserError('settings show: --config is for set');
      return withApp(args, async (app) => {
        if (action === 'show') {
          const s = await call(app, 'settings:get', {});
          io.out(
            args.options.json
              ? JSON.stringify(s, null, 2)
              : [
                  `provider: ${s.provider}`,
                  ...Object.entries(s.limits).map(([k, v]) => `${k}: ${v}`),
                  ...s.models.map(
                    (m) => `${m.provider}: fast ${m.tiers.fast}, standard ${m.tiers.standard}, deep ${m.tiers.deep}`,
                  ),
                  ...s.keys.map((k) => `key ${k.provider}: ${k.set ? 'set' : `not set (${k.variable})`}`),
                  ...s.problems,
                ].join('\n'),
          );
          return 0;
        }
        const changes = validated(channels['settings:set'].input, readConfigFile(path as string), path as string);
        const out = await call(app, 'settings:set', changes);
        io.out(
          args.options.json
            ? JSON.stringify(out, null, 2)
            : out.written
                .map((w) => (w.conflict ? `Kept your edited file; the new version is ${w.path}` : `Wrote ${w.path}`))
                .join('\n') || 'nothing to change',
        );
        return 0;
      });
    },
  },
];
