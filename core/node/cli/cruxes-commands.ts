import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import type { Command } from './workspace-commands';

/** The global crux graph of the workspace, as the crux map's workspace mode shows it. */
export const cruxesCommand: Command = {
  spec: {
    name: 'cruxes',
    summary: 'Every debate’s cruxes together: merged duplicates, dependencies, root cruxes, what to debate next.',
    usage: 'cruxes graph --workspace DIR [--json]',
    positionals: ['ACTION'],
    options: { workspace: workspaceOption, json: jsonOption },
  },
  run(args, io) {
    const [action] = args.positionals;
    if (action !== 'graph') throw new UserError('cruxes: the action is graph');
    return withApp(args, async (app) => {
      const graph = await call(app, 'cruxes:graph', {});
      if (args.options.json) {
        io.out(JSON.stringify(graph, null, 2));
        return 0;
      }
      const flags = (n: (typeof graph.nodes)[number]) =>
        [n.root ? 'root' : '', n.shared ? `shared by ${n.ideas.length} ideas` : '', n.validated ? '' : 'not validated']
          .filter(Boolean)
          .join(', ');
      io.out(
        [
          `${graph.nodes.length} crux(es) from ${graph.debates.length} debate(s); ${graph.merges.length} merged, ${graph.edges.length} dependenc${graph.edges.length === 1 ? 'y' : 'ies'}`,
          ...graph.nodes.map(
            (n) =>
              `${n.id}  ${n.question}  (YES ${n.split.yes} / NO ${n.split.no}, DCG ${n.dcg.toFixed(2)}${flags(n) ? `; ${flags(n)}` : ''})`,
          ),
          ...graph.merges.map(
            (m) => `merged ${m.from} into ${m.into} (${m.via === 'confirmed' ? 'confirmed by a second call' : 'same wording'}, ${m.confidence})`,
          ),
          ...graph.edges.map((e) => `${e.to} rests on ${e.from} (${e.kind}, ${e.confidence})`),
          ...(graph.recommended.length > 0 ? ['Next questions:'] : []),
          ...graph.recommended.map((r, i) => `${i + 1}. ${r.question} — ${r.reason}`),
        ].join('\n'),
      );
      return 0;
    });
  },
};
