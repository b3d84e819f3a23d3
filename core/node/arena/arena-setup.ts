import { resolveArenaConfig, type SimilarityMeasure } from '../../arena/config';
import { type ArenaContextInput, arenaContext } from '../../arena/context';
import type { ArenaPersona, ArenaSetup } from '../../arena/live/setup';
import { arenaPersonaText } from '../../arena/persona-text';
import { foldIdeaRatings, foldRatings } from '../../arena/ratings';
import { currentProposal } from '../../arena/state';
import { selectTeam, type TeamPick } from '../../arena/team';
import {
  type ArenaTournament,
  championPrompt,
  pairingAgents,
  type TournamentIdea,
  tournamentQuestion,
} from '../../arena/tournament';
import type { LedgerCrux, LedgerFalsifier } from '../../contract';
import type { Persona } from '../../personas/persona';
import type { EmbeddingEndpoint } from '../../ports/embeddings';
import type { ProviderName } from '../debates/providers';
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
  /** The endpoint of the `embedding` measure (required with it). */
  embedding?: EmbeddingEndpoint | null;
  /** The provider it will run on: with `anthropic` each round's materials are cached for the round. */
  provider?: ProviderName;
  /** The ledger's rows (from the app's `ledger:list`), of which those that mention the idea go into the brief. */
  ledger: { cruxes: LedgerCrux[]; falsifiers: LedgerFalsifier[] };
}

/** One meeting of a tournament: the tournament, the two ideas that meet, and the arena's other settings. */
export interface TournamentArenaOptions {
  tournament: { id: string; ideas: TournamentIdea[] };
  pairing: [string, string];
  index: number;
  of: number;
  judge: string;
  trickster: boolean;
  similarity: SimilarityMeasure;
  embedding?: EmbeddingEndpoint | null;
  provider?: ProviderName;
  ledger: ArenaStartOptions['ledger'];
}

/**
 * A persona as an arena sends it: a debater's prompt without its crux-stage instructions (the lock,
 * the evidence stage; see `arenaPersonaText`), the judge's and the trickster's whole, and for a
 * tournament's champion the paragraph saying which idea it stands for.
 */
const asArena = (p: Persona, extra?: string): ArenaPersona => {
  const own = p.role === 'debater' ? arenaPersonaText(p.systemPrompt) : p.systemPrompt.trim();
  return { id: p.id, name: p.name, systemPrompt: extra ? `${own}\n\n${extra}` : own, tier: p.tier };
};

function personas(ws: Workspace, ids: string[]): Persona[] {
  try {
    return findPersonas(ids, loadPersonas(ws.root));
  } catch (error) {
    if (error instanceof UnknownPersonaError) throw new UserError(error.message);
    throw error;
  }
}

/** The debater personas named, refused by name when one is not a debater. */
function debaters(ws: Workspace, ids: string[]): Persona[] {
  const found = personas(ws, ids);
  const notDebaters = found.filter((p) => p.role !== 'debater');
  if (notDebaters.length > 0)
    throw new UserError(`not debaters: ${notDebaters.map((p) => `${p.id} (${p.role})`).join(', ')}`);
  return found;
}

/** The judge, and the trickster when it is on. */
function officials(ws: Workspace, judgeId: string, trickster: boolean): { judge: Persona; trickster: Persona | null } {
  const [judge] = personas(ws, [judgeId]);
  if (judge?.role !== 'judge') throw new UserError(`--judge ${judgeId}: not a judge persona (${judge?.role})`);
  return { judge, trickster: trickster ? (personas(ws, ['trickster'])[0] ?? null) : null };
}

/** Completed arenas only: cancelled, failed and partial ones count for nothing. */
export function completedArenas(logs: readonly ArenaLog[]): ArenaLog[] {
  return logs.filter((a) => a.status === 'completed' && a.state.outcome !== null);
}

/** Persona Elo as the fold over completed arena logs has it now (tournament arenas rate ideas instead). */
export function currentRatings(root: string): Record<string, number> {
  const done = completedArenas(readArenaLogs(root).arenas);
  return Object.fromEntries(
    foldRatings(done.map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state }))).map((r) => [
      r.id,
      r.elo,
    ]),
  );
}

/** Idea Elo as the fold over the completed arenas of tournaments has it now. */
export function currentIdeaRatings(root: string): Record<string, number> {
  const done = completedArenas(readArenaLogs(root).arenas);
  return Object.fromEntries(foldIdeaRatings(tournamentArenas(done)).map((r) => [r.id, r.elo]));
}

/** The completed arenas that belong to a tournament, as the idea fold takes them. */
export function tournamentArenas(done: readonly ArenaLog[]) {
  return done.flatMap((a) =>
    a.tournament ? [{ id: a.id, completedAt: a.statusAt ?? '', state: a.state, tournament: a.tournament.id }] : [],
  );
}

type ShownIdea = ReturnType<Workspace['show']>;

/** The brief with earlier runs' episodes closing it (core/memory); without any it reads as before. */
function withMemory(brief: string, memory: readonly string[]): string {
  return memory.length > 0 ? `${brief}\n\n${memoryBlock(memory)}` : brief;
}

/**
 * Round 0's brief from the workspace: the ideas (one, or a tournament arena's two with their
 * champions), their related ideas, the ledger's rows that mention them and `past` arenas.
 */
function briefOf(
  ws: Workspace,
  ideas: { idea: ShownIdea; champion?: string }[],
  ledger: ArenaStartOptions['ledger'],
  past: readonly ArenaLog[],
): string {
  const slugs = new Set(ideas.map((i) => i.idea.slug));
  const mentions = (text: string | null) =>
    ideas.some(({ idea }) => text?.toLowerCase().includes(idea.title.toLowerCase()) === true);
  const about = (slug: string | null, question: string | null) =>
    (slug !== null && slugs.has(slug)) || mentions(question);
  const list = ws.list();
  const context: ArenaContextInput = {
    ideas: ideas.map(({ idea, champion }) => ({
      slug: idea.slug,
      title: idea.title,
      summary: idea.summary,
      readme: idea.readme,
      ...(champion !== undefined ? { champion } : {}),
    })),
    related: ideas.flatMap(({ idea }) =>
      idea.relationships.flatMap((r) => {
        const other = list.find((i) => i.slug === r.target || i.id === r.target);
        return other && !slugs.has(other.slug)
          ? [{ slug: other.slug, title: other.title, type: r.type, reason: r.reason, summary: other.summary }]
          : [];
      }),
    ),
    cruxes: ledger.cruxes
      .filter((c) => c.status !== 'resolved' && about(c.ideaSlug, c.question))
      .map((c) => ({ question: c.question, debateTopic: c.debateTopic, nextDeadline: c.nextDeadline })),
    falsifiers: ledger.falsifiers.flatMap((f) =>
      f.resolution && ideas.length > 0 && about(f.ideaSlug, f.question)
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
    past: [...past]
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
  return arenaContext(context);
}

/**
 * The setup of a new arena: the personas with their prompts, the context brief (round 0) from the
 * idea, its related ideas, the ledger and earlier arenas, and the ratings from before it.
 */
export function arenaSetupFor(ws: Workspace, options: ArenaStartOptions): { topic: string; setup: ArenaSetup } {
  const ids = options.agents;
  if (ids.length < 2 || ids.length > 12) throw new UserError(`an arena needs 2 to 12 agents (got ${ids.length})`);
  const agents = debaters(ws, ids);
  const { judge, trickster } = officials(ws, options.judge, options.trickster);
  const idea = options.ideaSlug === undefined ? null : ws.show(options.ideaSlug);
  const topic = options.topic ?? idea?.title;
  if (!topic) throw new UserError('arena: say what it is about (--topic T, or --idea SLUG)');
  const logs = completedArenas(readArenaLogs(ws.root).arenas);
  const past = logs.filter((a) =>
    a.tournament !== null ? false : idea ? a.ideaSlug === idea.slug : a.ideaSlug === null && a.state.topic === topic,
  );
  const ratings = currentRatings(ws.root);
  // Earlier runs' episodes close the brief (core/memory); an arena with none reads as before.
  const memory = workspaceMemory(ws.root).linesFor({ idea: idea?.slug ?? null, text: topic });
  return {
    topic,
    setup: {
      question: topic,
      context: withMemory(briefOf(ws, idea ? [{ idea }] : [], options.ledger, past), memory),
      agents: agents.map((p) => asArena(p)),
      judge: asArena(judge),
      trickster: trickster ? asArena(trickster) : null,
      config: resolveArenaConfig({ similarity: options.similarity, trickster: options.trickster }),
      ratings: Object.fromEntries(ids.map((id) => [id, ratings[id] ?? 1500])),
      embedding: options.embedding ?? null,
      cacheRounds: options.provider === 'anthropic',
      tournament: null,
    },
  };
}

/**
 * The setup of one head-to-head arena of a tournament: the two ideas' champions as its agents (each
 * told which idea it stands for), both ideas in the brief with their related ideas and ledger rows,
 * the earlier completed meetings of the same two ideas, and the ideas' ratings from before it (keyed
 * by champion: in this arena an agent stands for its idea).
 */
export function tournamentArenaSetup(
  ws: Workspace,
  options: TournamentArenaOptions,
): { topic: string; setup: ArenaSetup } {
  const { tournament, pairing } = options;
  const ideaOf = (slug: string) => {
    const idea = tournament.ideas.find((i) => i.slug === slug);
    if (!idea) throw new UserError(`"${slug}" is not an idea of tournament ${tournament.id}`);
    return idea;
  };
  const [a, b] = [ideaOf(pairing[0]), ideaOf(pairing[1])];
  const ids = pairingAgents(tournament.ideas, pairing);
  const agents = debaters(ws, ids);
  const { judge, trickster } = officials(ws, options.judge, options.trickster);
  const topic = tournamentQuestion(a, b);
  const logs = completedArenas(readArenaLogs(ws.root).arenas);
  const pair = new Set(pairing);
  const past = logs.filter((l) => l.tournament?.pairing.every((s) => pair.has(s)) === true);
  const shown = [a, b].map((i) => ({
    idea: ws.show(i.slug),
    champion: `${agents.find((p) => p.id === i.champion)?.name ?? i.champion} [${i.champion}]`,
  }));
  const ideaRatings = currentIdeaRatings(ws.root);
  const setup: ArenaSetup = {
    question: topic,
    context: briefOf(ws, shown, options.ledger, past),
    agents: agents.map((p, k) => asArena(p, championPrompt(k === 0 ? a : b, k === 0 ? b : a))),
    judge: asArena(judge),
    trickster: trickster ? asArena(trickster) : null,
    config: resolveArenaConfig({ similarity: options.similarity, trickster: options.trickster }),
    ratings: Object.fromEntries([a, b].map((i) => [i.champion, ideaRatings[i.slug] ?? 1500])),
    embedding: options.embedding ?? null,
    cacheRounds: options.provider === 'anthropic',
    tournament: {
      id: tournament.id,
      ideas: tournament.ideas,
      pairing,
      index: options.index,
      of: options.of,
    } satisfies ArenaTournament,
  };
  return { topic, setup };
}

/**
 * `--agents auto --size N`: the team the ratings pick from the workspace's debater personas (see
 * `selectTeam`), with the persona fold as it stands now.
 */
export function autoTeam(ws: Workspace, size: number): TeamPick {
  const all = loadPersonas(ws.root)
    .personas.filter((p) => p.role === 'debater')
    .map((p) => p.id);
  const done = completedArenas(readArenaLogs(ws.root).arenas);
  const ratings = foldRatings(done.map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state })));
  try {
    return selectTeam(all, ratings, size);
  } catch (error) {
    if (error instanceof RangeError) throw new UserError(error.message);
    throw error;
  }
}
