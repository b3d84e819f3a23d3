import type { CrossCheckView, GlobalCruxGraphView } from '../../contract';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, providerOf, providerOption, seedOf, seedOption, workspaceOption } from './common';
import type { Command } from './workspace-commands';

/** A whole number ≥ 1 given as an option, or undefined when it is not given. */
function positive(value: unknown, flag: string, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new UserError(`--${flag} must be a ${integer ? 'whole number' : 'number'} above 0, not "${String(value)}"`);
  return n;
}

function graphLines(graph: GlobalCruxGraphView): string[] {
  const flags = (n: GlobalCruxGraphView['nodes'][number]) =>
    [n.root ? 'root' : '', n.shared ? `shared by ${n.ideas.length} ideas` : '', n.validated ? '' : 'not validated']
      .filter(Boolean)
      .join(', ');
  const cross = graph.crossDebate;
  return [
    `${graph.nodes.length} crux(es) from ${graph.debates.length} debate(s); ${graph.merges.length} merged, ${graph.edges.length} dependenc${graph.edges.length === 1 ? 'y' : 'ies'}`,
    `Across debates: ${cross.checked} pair(s) checked by a model (${cross.confirmed} confirmed), ${cross.unchecked} still to check (cruxes check)`,
    ...graph.nodes.map(
      (n) =>
        `${n.id}  ${n.question}  (YES ${n.split.yes} / NO ${n.split.no}, DCG ${n.dcg.toFixed(2)}${flags(n) ? `; ${flags(n)}` : ''})`,
    ),
    ...graph.merges.map(
      (m) =>
        `merged ${m.from} into ${m.into} (${m.via === 'confirmed' ? 'confirmed by a second call' : 'same wording, not checked by a model'}, ${m.confidence})`,
    ),
    ...graph.edges.map((e) => `${e.to} rests on ${e.from} (${e.kind}, ${e.confidence})`),
    ...(graph.recommended.length > 0 ? ['Next questions:'] : []),
    ...graph.recommended.map((r, i) => `${i + 1}. ${r.question} — ${r.reason}`),
  ];
}

function checkLines(check: CrossCheckView): string[] {
  const left =
    check.left === 0
      ? 'every pair the words pick out is answered'
      : `${check.left} pair(s) left (${check.stoppedBy === 'budget' ? 'the budget' : 'at most --max-pairs a pass'}): ask again`;
  return [
    `${check.relations.length} pair(s) of cruxes from different debates asked; ${check.llmCalls} call(s), $${check.costUsd.toFixed(4)}; ${left}`,
    ...check.relations.map(
      (r) => `${r.a} ~ ${r.b}: ${r.relation} ${r.status} (${r.confidence})${r.note ? ` — ${r.note}` : ''}`,
    ),
  ];
}

/** The global crux graph of the workspace, as the crux map's workspace mode shows it, and its cross-debate check. */
export const cruxesCommand: Command = {
  spec: {
    name: 'cruxes',
    summary:
      'Every debate’s cruxes together: merged duplicates, dependencies, root cruxes, what to debate next; `check` asks a model which cruxes of different debates are one or rest on another.',
    usage:
      'cruxes (graph | check --provider simulated|anthropic|openai [--seed N] [--max-pairs N] [--budget USD]) --workspace DIR [--json]',
    positionals: ['ACTION'],
    options: {
      workspace: workspaceOption,
      json: jsonOption,
      provider: providerOption,
      seed: seedOption,
      'max-pairs': { type: 'string', value: 'N', description: 'check: at most N pairs in this pass (default 20)' },
      budget: { type: 'string', value: 'USD', description: 'check: spend at most this much (default 0.5)' },
    },
  },
  run(args, io) {
    const [action] = args.positionals;
    if (action !== 'graph' && action !== 'check') throw new UserError('cruxes: the action is graph or check');
    if (action === 'check') {
      const provider = providerOf(args);
      const seed = seedOf(args);
      const maxPairs = positive(args.options['max-pairs'], 'max-pairs', true);
      const budgetUsd = positive(args.options.budget, 'budget', false);
      return withApp(args, async (app) => {
        const check = await call(app, 'cruxes:check', {
          provider,
          ...(seed !== undefined ? { seed } : {}),
          ...(maxPairs !== undefined ? { maxPairs } : {}),
          ...(budgetUsd !== undefined ? { budgetUsd } : {}),
        });
        io.out(args.options.json ? JSON.stringify(check, null, 2) : checkLines(check).join('\n'));
        return 0;
      });
    }
    return withApp(args, async (app) => {
      const graph = await call(app, 'cruxes:graph', {});
      io.out(args.options.json ? JSON.stringify(graph, null, 2) : graphLines(graph).join('\n'));
      return 0;
    });
  },
};
