import type { z } from 'zod';
import type { AskInfo, PlannedCall, Protocol, RunStatus } from '../../engine/protocol';
import type { ProtocolEntry } from '../../engine/registry';
import { ArenaInputError } from '../errors';
import { type ArenaAsk, type ArenaInput, describeAsk } from '../inputs';
import { arenaResult } from '../result';
import { simulatorForArena } from '../simulator';
import type { RevisionAnswer } from '../answers';
import { agreementPairs, type JudgedAgreements } from '../judged-agreements';
import { applyRevisionEdits, type RevisionEdits } from '../revision-edits';
import { type ArenaState, createArena, currentProposal } from '../state';
import { arenaAsks, arenaDone, step } from '../step';
import { arenaRequest } from './requests';
import { type ArenaSetup, arenaSetupSchema } from './setup';
import { championsOf } from '../tournament';
import { arenaTranscript } from './transcript';
import { arenaEpisode } from '../../memory/arena-episode';

/**
 * The arena as a tenant of the one runner: its asks are `arenaAsks`, its inputs go through `step`,
 * and everything else (rounds, the pool, the meter, the log, resume) is the runner's. An agent whose
 * answer cannot be had (its ask failed three times) leaves the arena and the others go on without
 * it; a judge's or the trickster's ask that keeps failing, or an arena left with fewer than two
 * agents, fails the arena, visibly, and a failed arena does not count for ratings.
 */

/** Times one ask is put to the model (each with the provider's own re-asks) before the arena fails. */
const ASK_ATTEMPTS = 3;

/** The planned-call form of an ask: its kind, the place it belongs to, who answers. */
function plannedOf(setup: ArenaSetup, ask: ArenaAsk): PlannedCall {
  const thread = ask.kind === 'revision' || ask.kind === 'similarity' ? `${ask.kind}:${ask.round}` : ask.kind;
  return { kind: ask.kind, thread, agent: answererOf(setup, ask) };
}

function answererOf(setup: ArenaSetup, ask: ArenaAsk): string {
  if ('agent' in ask) return ask.agent;
  if (ask.kind === 'trickster') return setup.trickster?.id ?? 'trickster';
  return setup.judge.id;
}

/** An ask in words; a similarity names its measure (the replay's similarity lines are always judged). */
function askName(setup: ArenaSetup, ask: ArenaAsk): string {
  if (ask.kind === 'similarity' && setup.config.similarity === 'embedding')
    return `the embedding similarity of round ${ask.round}`;
  return describeAsk(ask);
}

/**
 * The whole revised proposal a live revision's edits make. The request's check has applied them
 * already (a model's edits that do not apply are put back to it), so they apply here; the log keeps
 * the whole proposal, as a replay script gives it.
 */
function revised(state: ArenaState, agent: string, edits: unknown): RevisionAnswer {
  const current = currentProposal(state, agent);
  const applied = current ? applyRevisionEdits(current, edits as RevisionEdits) : null;
  if (!applied?.ok)
    throw new Error(
      `${agent}'s revision does not apply to its current version: ${applied ? applied.problems.join('; ') : 'it has none'}`,
    );
  return applied.value;
}

const key = (p: PlannedCall) => `${p.kind}|${p.thread}|${p.agent ?? ''}`;

export function arenaProtocol(setup: ArenaSetup): Protocol<ArenaState, ArenaInput, ArenaAsk> {
  const describe = (ask: ArenaAsk): AskInfo => {
    const planned = plannedOf(setup, ask);
    return {
      agent: planned.agent as string,
      meterAgent: planned.agent,
      purpose: planned.thread,
      failedAt: planned.thread,
      planned,
      degradable: false,
      drafts: false,
    };
  };
  return {
    name: 'arena',
    version: 1,
    // The first call writes the head every call shares (the tools, the rules, question and brief).
    warmFirstCall: true,
    // With a provider whose prompt cache is marked per request, the first call of each round also
    // writes what the round's calls share (the proposals and critiques as they stand) for the others.
    warmEachRound: setup.cacheRounds,
    step,
    isRefusal: (error) => error instanceof ArenaInputError,
    done: arenaDone,
    finalStatus: (state): RunStatus => state.stopped?.status ?? 'completed',
    // A failed arena's cause goes into its last status record, so `runs list` and `runs show` say it.
    finalReason: (state) => state.stopped?.reason ?? null,
    asks(state, view) {
      const asks = arenaAsks(state);
      // A round logged but cut short is the same round: its remaining calls are not logged again.
      const resumed =
        view.pending.length > 0 &&
        view.pending.length === asks.length &&
        asks.every((a, i) => key(plannedOf(setup, a)) === key(view.pending[i] as PlannedCall));
      return { asks, resumed };
    },
    describe,
    request: (state, ask) => arenaRequest(setup, state, ask),
    answer(state, ask, value) {
      switch (ask.kind) {
        case 'revision':
          return { kind: 'revision', agent: ask.agent, round: ask.round, output: revised(state, ask.agent, value) };
        case 'refinement':
          return { kind: 'refinement', agent: ask.agent, output: revised(state, ask.agent, value) };
        case 'similarity':
          // The judged measure's agreements keyed by pair names become the pairs the log keeps; the
          // embedding measure's answer is those pairs already.
          return {
            kind: 'similarity',
            round: ask.round,
            output: setup.config.similarity === 'judged' ? agreementPairs(value as JudgedAgreements) : value,
          } as ArenaInput;
        case 'trickster':
        case 'judge':
          return { kind: ask.kind, output: value } as ArenaInput;
        default:
          return { kind: ask.kind, agent: ask.agent, output: value } as ArenaInput;
      }
    },
    failed(_state, ask, failure) {
      // Asked again in the next round: the ask is still due.
      if (failure.fromModel && failure.attempts < ASK_ATTEMPTS) return [];
      const reason = `${askName(setup, ask)} failed: ${failure.message}`;
      // A model that cannot give an agent's answer takes that agent out, not the arena (a defect does).
      if (failure.fromModel && 'agent' in ask) return [{ kind: 'withdraw', agent: ask.agent, reason }];
      return [{ kind: 'stop', status: 'failed', reason }];
    },
    stop: (_state, cause) => ({ inputs: [{ kind: 'stop', status: 'partial', reason: cause.text }], after: 'partial' }),
    settles(input) {
      if (input.kind === 'stop' || input.kind === 'withdraw') return null;
      const ask: ArenaAsk =
        input.kind === 'revision'
          ? { kind: 'revision', agent: input.agent, round: input.round }
          : input.kind === 'similarity'
            ? { kind: 'similarity', round: input.round }
            : input.kind === 'trickster'
              ? { kind: 'trickster' }
              : input.kind === 'judge'
                ? { kind: 'judge', pass: 'main' }
                : input.kind === 'vote'
                  ? { kind: 'vote', agent: input.agent, pass: 'main' }
                  : { kind: input.kind, agent: input.agent };
      return plannedOf(setup, ask);
    },
    failureOf(agent, failedAt) {
      if (failedAt === null) return null;
      return { planned: { kind: failedAt.split(':')[0] as string, thread: failedAt, agent }, degradable: false };
    },
  };
}

/** What a run shows of itself: the result once it has an outcome, else where it stands. */
export function arenaSummary(state: ArenaState): Record<string, unknown> {
  const result = arenaResult(state);
  const champions = state.champions ? { champions: state.champions } : {};
  if (result) return { ...result, ...champions };
  return {
    topic: state.topic,
    outcome: null,
    stage: state.stage.kind,
    calls: state.calls,
    convergence: state.convergence,
    ...champions,
    ...(state.stopped ? { stopped: state.stopped } : {}),
  };
}

export const arenaEntry: ProtocolEntry<ArenaSetup, ArenaState, ArenaInput, ArenaAsk> = {
  name: 'arena',
  version: 1,
  setup: arenaSetupSchema as unknown as z.ZodType<ArenaSetup>,
  folder: 'arenas',
  init: (setup) =>
    createArena({
      topic: setup.question,
      agents: setup.agents.map((a) => ({ id: a.id, name: a.name })),
      judge: setup.judge.id,
      config: setup.config,
      ratings: setup.ratings,
      champions: setup.tournament ? championsOf(setup.tournament) : null,
    }),
  protocol: (setup) => arenaProtocol(setup),
  summary: arenaSummary,
  transcript: arenaTranscript,
  simulator: simulatorForArena,
  episode: (setup, state, run) => arenaEpisode(setup, state, run.ideaSlug),
};
