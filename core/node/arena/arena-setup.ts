import { type ArenaContextInput, arenaContext } from '../../arena/context';
import { resolveArenaConfig, type SimilarityMeasure } from '../../arena/config';
import type { ArenaPersona, ArenaSetup } from '../../arena/live/setup';
import { foldRatings } from '../../arena/ratings';
import { currentProposal } from '../../arena/state';
import type { LedgerCrux, LedgerFalsifier } from '../../contract';
import type { Persona } from '../../personas/persona';
import { findPersonas, loadPersonas, UnknownPersonaError } from '../personas/load-personas';
import { UserError, type Workspace } from '../workspace/workspace';
import { type ArenaLog, readArenaLogs } from './arena-logs';
import { memoryBlock } from '../../memory/relevance';
import { workspaceMemory } from '../memory/workspace-memory';

/** What the researcher asks for when starting an arena. */
export interface ArenaStartOptions {
  ideaSlug?: string;
  topic?: string;
  agents: string[];
  judge: string;
  trickster: boolean;
  similarity: SimilarityMeasure;
  /** The ledger's rows (from the app's `ledger:list`), of which those that mention the idea go into the brief. */
  ledger: { cruxes: LedgerCrux[]; falsifiers: LedgerFalsifier[] };
}

const asArena = (p: Persona): ArenaPersona => ({ id: p.id, name: p.name, systemPrompt: p.systemPrompt, tier: p.tier });

function personas(ws: Workspace, ids: string[]): Persona[] {
  try {
    return findPersonas(ids, loadPersonas(ws.root));
  } catch (error) {
    if (error instanceof UnknownPersonaError) throw new UserError(error.message);
    throw error;
  }
}

/** Completed arenas only: cancelled, failed and partial ones count for nothing. */
export function completedArenas(logs: readonly ArenaLog[]): ArenaLog[] {
  return logs.filter((a) => a.status === 'completed' && a.state.outcome !== null);
}

/** Persona Elo as the fold over completed arena logs has it now. */
export function currentRatings(root: string): Record<string, number> {
  const done = completedArenas(readArenaLogs(root).arenas);
  return Object.fromEntries(
    foldRatings(done.map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state }))).map((r) => [
      r.id,
      r.elo,
    ]),
  );
}

/**
 * The setup of a new arena: the personas with their prompts, the context brief (round 0) from the
 * idea, its related ideas, the ledger and earlier arenas, and the ratings from before it.
 */
export function arenaSetupFor(ws: Workspace, options: ArenaStartOptions): { topic: string; setup: ArenaSetup } {
  const ids = options.agents;
  if (ids.length < 2 || ids.length > 12) throw new UserError(`an arena needs 2 to 12 agents (got ${ids.length})`);
  const agents = personas(ws, ids);
  const notDebaters = agents.filter((p) => p.role !== 'debater');
  if (notDebaters.length > 0)
    throw new UserError(`not debaters: ${notDebaters.map((p) => `${p.id} (${p.role})`).join(', ')}`);
  const [judge] = personas(ws, [options.judge]);
  if (judge?.role !== 'judge')
    throw new UserError(`--judge ${options.judge}: not a judge persona (${judge?.role})`);
  const trickster = options.trickster ? personas(ws, ['trickster'])[0] : undefined;

  const idea = options.ideaSlug === undefined ? null : ws.show(options.ideaSlug);
  const topic = options.topic ?? idea?.title;
  if (!topic) throw new UserError('arena: say what it is about (--topic T, or --idea SLUG)');
  const logs = completedArenas(readArenaLogs(ws.root).arenas);
  const mentions = (text: string | null) =>
    idea !== null && text?.toLowerCase().includes(idea.title.toLowerCase()) === true;
  const list = ws.list();
  const context: ArenaContextInput = {
    idea: idea ? { slug: idea.slug, title: idea.title, summary: idea.summary, readme: idea.readme } : null,
    related: (idea?.relationships ?? []).flatMap((r) => {
      const other = list.find((i) => i.slug === r.target || i.id === r.target);
      return other
        ? [{ slug: other.slug, title: other.title, type: r.type, reason: r.reason, summary: other.summary }]
        : [];
    }),
    cruxes: options.ledger.cruxes
      .filter((c) => c.status !== 'resolved' && (c.ideaSlug === idea?.slug || mentions(c.question)))
      .map((c) => ({ question: c.question, debateTopic: c.debateTopic, nextDeadline: c.nextDeadline })),
    falsifiers: options.ledger.falsifiers.flatMap((f) =>
      f.resolution && idea && (f.ideaSlug === idea.slug || mentions(f.question))
        ? [
            {
              agentName: f.agentName,
              metric: f.metric,
              threshold: f.threshold,
              outcome: f.resolution.outcome,
              resolvedOn: f.resolution.resolvedOn,
            },
          ]
        : [],
    ),
    past: logs
      .filter((a) => (idea ? a.ideaSlug === idea.slug : a.ideaSlug === null && a.state.topic === topic))
      .sort((a, b) => (b.statusAt ?? '').localeCompare(a.statusAt ?? ''))
      .slice(0, 3)
      .map((a) => {
        const winner = a.state.judgments[a.state.judgments.length - 1]?.ranking[0] ?? '';
        const p = currentProposal(a.state, winner);
        return {
          question: a.state.topic,
          outcome: a.state.outcome ?? '',
          winner,
          title: p?.title ?? '',
          summary: p?.summary ?? '',
        };
      }),
  };
  const ratings = currentRatings(ws.root);
  // Earlier runs' episodes close the brief (core/memory); an arena with none reads as before.
  const memory = workspaceMemory(ws.root).linesFor({ idea: idea?.slug ?? null, text: topic });
  return {
    topic,
    setup: {
      question: topic,
      context: memory.length > 0 ? `${arenaContext(context)}\n\n${memoryBlock(memory)}` : arenaContext(context),
      agents: agents.map(asArena),
      judge: asArena(judge),
      trickster: trickster ? asArena(trickster) : null,
      config: resolveArenaConfig({ similarity: options.similarity, trickster: options.trickster }),
      ratings: Object.fromEntries(ids.map((id) => [id, ratings[id] ?? 1500])),
    },
  };
}
