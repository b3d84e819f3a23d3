import type { CritiqueAnswer, ProposalAnswer, RevisionAnswer, VoteAnswer } from './answers';
import {
  critiqueProblems,
  judgeProblems,
  proposalProblems,
  revisionProblems,
  similarityProblems,
  tricksterProblems,
  voteProblems,
} from './checks';
import { ArenaInputError } from './errors';
import { type AfterChallenge, checkHollow } from './hollow';
import { type ArenaAsk, type ArenaInput, describeAsk } from './inputs';
import { lexicalScore } from './similarity';
import {
  type ArenaPass,
  type ArenaRound,
  type ArenaStage,
  type ArenaState,
  activeIds,
  type Critique,
  currentProposal,
  lastVote,
  type ProposalVersion,
  type RevisionRecord,
} from './state';
import { type Ballot, clearLead, countVotes, rankByScores } from './votes';

/**
 * The arena as a pure state machine (ARENA-PROTOCOL.md). `asks` says which answers are due now, in
 * the order they are applied; `step` takes one of them (or a stop) and returns the next state and
 * what happened. The replay driver and the live protocol both go through these two functions, so a
 * replayed script and a live run of the same answers end in the same state.
 */

export type ArenaEvent = Record<string, unknown> & { kind: string };

type Step = { state: ArenaState; events: ArenaEvent[] };

/** The answers due now, in the order they are applied (within a round: the agents' order). */
export function arenaAsks(state: ArenaState): ArenaAsk[] {
  if (state.outcome !== null || state.stopped !== null) return [];
  const stage = state.stage;
  const waiting = activeIds(state).filter((a) => !(a in state.buffer));
  switch (stage.kind) {
    case 'proposal':
    case 'critique':
    case 'refinement':
      return waiting.map((agent) => ({ kind: stage.kind, agent }));
    case 'revision':
      return waiting.map((agent) => ({ kind: 'revision', agent, round: stage.round }));
    case 'vote':
      return waiting.map((agent) => ({ kind: 'vote', agent, pass: stage.pass }));
    case 'similarity':
      return [{ kind: 'similarity', round: stage.round }];
    case 'trickster':
      return [{ kind: 'trickster' }];
    case 'judge':
      return [{ kind: 'judge', pass: stage.pass }];
    case 'done':
      return [];
  }
}

export function arenaDone(state: ArenaState): boolean {
  return state.outcome !== null || state.stopped !== null;
}

/** Whether `input` answers `ask` (the same kind, agent and round). */
export function answers(input: ArenaInput, ask: ArenaAsk): boolean {
  if (input.kind !== ask.kind) return false;
  if ('agent' in ask && (!('agent' in input) || input.agent !== ask.agent)) return false;
  if (ask.kind === 'revision' && input.kind === 'revision') return String(input.round) === String(ask.round);
  if (ask.kind === 'similarity' && input.kind === 'similarity') return input.round === ask.round;
  return true;
}

function refuse(problems: string[]): void {
  if (problems.length > 0) throw new ArenaInputError(problems.join('; '));
}

export function step(state: ArenaState, input: ArenaInput): Step {
  if (state.stopped !== null) throw new ArenaInputError(`the arena has stopped (${state.stopped.reason})`);
  if (state.outcome !== null) throw new ArenaInputError(`the arena is over (${state.outcome})`);
  if (input.kind === 'stop') {
    return {
      state: { ...state, stopped: { status: input.status, reason: input.reason } },
      events: [{ kind: 'stopped', status: input.status, reason: input.reason }],
    };
  }
  const due = arenaAsks(state);
  if (input.kind === 'withdraw') return withdraw(state, due, input.agent, input.reason);
  const ask = due.find((a) => answers(input, a));
  if (!ask) {
    const waiting = due.map(describeAsk);
    throw new ArenaInputError(
      `not asked for: the arena is waiting for ${waiting.length > 0 ? waiting.join(', ') : 'nothing'}`,
    );
  }
  const calls = state.calls + 1;
  switch (input.kind) {
    case 'proposal':
      refuse(proposalProblems(state, input.agent, input.output));
      return collect({ ...state, calls }, input.agent, input.output);
    case 'critique':
      refuse(critiqueProblems(state, input.agent, input.output));
      return collect({ ...state, calls }, input.agent, input.output);
    case 'revision':
    case 'refinement':
      refuse(revisionProblems(state, input.agent, input.output));
      return collect({ ...state, calls }, input.agent, input.output);
    case 'vote':
      refuse(voteProblems(state, input.agent, input.output));
      return collect({ ...state, calls }, input.agent, input.output);
    case 'similarity': {
      refuse(similarityProblems(state, input.output));
      const pairs = input.output.pairs;
      const score = pairs.reduce((sum, p) => sum + p.agreement, 0) / pairs.length;
      return converged({ ...state, calls }, input.round, score, []);
    }
    case 'trickster':
      refuse(tricksterProblems(state, input.output));
      return {
        state: { ...state, calls, challenge: input.output, stage: { kind: 'revision', round: 'T' } },
        events: [{ kind: 'challenged', target: input.output.target, challenge: input.output.challenge }],
      };
    case 'judge':
      refuse(judgeProblems(state, input.output));
      return judged({ ...state, calls }, input.output);
  }
}

/** One agent's answer to a per-agent stage, held until every agent has answered. */
function collect(state: ArenaState, agent: string, answer: ArenaState['buffer'][string]): Step {
  const buffer = { ...state.buffer, [agent]: answer };
  const next = { ...state, buffer };
  const events: ArenaEvent[] = [{ kind: 'answered', stage: state.stage.kind, agent }];
  if (activeIds(state).some((a) => !(a in buffer))) return { state: next, events };
  return close({ ...next, buffer: {} }, buffer, events);
}

/**
 * An agent whose due answer could not be had leaves; the stage closes if everyone left has answered.
 * An arena needs two agents: when fewer remain it fails, naming why.
 */
function withdraw(state: ArenaState, due: readonly ArenaAsk[], agent: string, reason: string): Step {
  if (!due.some((a) => 'agent' in a && a.agent === agent))
    throw new ArenaInputError(`not asked for: ${agent} has no answer due, so it cannot leave now`);
  const next = { ...state, withdrawn: { ...state.withdrawn, [agent]: reason } };
  const events: ArenaEvent[] = [{ kind: 'withdrawn', agent, reason }];
  const left = activeIds(next);
  if (left.length < 2) {
    const why = `${reason}; ${agent} left the arena and ${left.length === 1 ? 'one agent is' : 'no agent is'} left`;
    events.push({ kind: 'stopped', status: 'failed', reason: why });
    return { state: { ...next, stopped: { status: 'failed', reason: why } }, events };
  }
  if (left.some((a) => !(a in state.buffer))) return { state: next, events };
  return close({ ...next, buffer: {} }, state.buffer, events);
}

/** A per-agent stage whose answers are all in: they count now, in agent order. */
function close(state: ArenaState, answers: ArenaState['buffer'], events: ArenaEvent[]): Step {
  const ids = activeIds(state);
  const stage = state.stage;
  const of = <T>(agent: string) => answers[agent] as T;
  switch (stage.kind) {
    case 'proposal': {
      const proposals = Object.fromEntries(
        ids.map((a): [string, ProposalVersion[]] => [a, [{ ...of<ProposalAnswer>(a), round: 1 }]]),
      );
      return { state: { ...state, proposals, stage: { kind: 'critique' } }, events };
    }
    case 'critique': {
      const critiques: Critique[] = ids.flatMap((author) =>
        of<CritiqueAnswer>(author).critiques.map((c, k) => ({ id: `c2-${author}-${k + 1}`, author, ...c })),
      );
      events.push({ kind: 'critiques', ids: critiques.map((c) => c.id) });
      return { state: { ...state, critiques, stage: { kind: 'revision', round: 3 } }, events };
    }
    case 'revision':
    case 'refinement': {
      const round: ArenaRound = stage.kind === 'refinement' ? 6 : stage.round;
      const revised = revise(state, round, (a) => of<RevisionAnswer>(a));
      if (stage.kind === 'refinement') return { state: { ...revised, stage: { kind: 'vote', pass: 'main' } }, events };
      if (round === 'T') return { state: { ...revised, stage: { kind: 'vote', pass: 'T' } }, events };
      if (typeof round === 'string') return { state: { ...revised, stage: { kind: 'vote', pass: round } }, events };
      if (state.config.similarity === 'lexical') {
        const score = lexicalScore(ids.map((a) => currentProposal(revised, a) as ProposalVersion));
        return converged(revised, round, score, events);
      }
      return { state: { ...revised, stage: { kind: 'similarity', round } }, events };
    }
    case 'vote':
      return voted(state, stage.pass, Object.fromEntries(ids.map((a) => [a, ballotOf(of<VoteAnswer>(a))])), events);
    default:
      throw new Error(`stage ${stage.kind} takes no per-agent answers`);
  }
}

function ballotOf(v: VoteAnswer): Ballot {
  return { vote: v.vote, confidence: v.confidence, reason: v.reason };
}

/** Every agent's new version and what it changed, from a revision-shaped round. */
function revise(state: ArenaState, round: ArenaRound, answer: (agent: string) => RevisionAnswer): ArenaState {
  const proposals = { ...state.proposals };
  const records: RevisionRecord[] = [];
  for (const agent of activeIds(state)) {
    const { changes, addressed, ...proposal } = answer(agent);
    proposals[agent] = [...(proposals[agent] ?? []), { ...proposal, round }];
    records.push({ agent, round, changes, addressed: [...new Set(addressed)] });
  }
  return { ...state, proposals, revisions: [...state.revisions, ...records] };
}

/** The convergence score of revision round `round`, and what it decides. */
function converged(state: ArenaState, round: number, score: number, events: ArenaEvent[]): Step {
  const measure = state.config.similarity;
  const convergence = [...state.convergence, { round, score, measure }];
  const early = score >= state.config.convergenceThreshold;
  const last = 2 + state.config.revisionRounds;
  const stage: ArenaStage = early
    ? { kind: 'vote', pass: 'main' }
    : round < last
      ? { kind: 'revision', round: round + 1 }
      : { kind: 'refinement' };
  events.push({ kind: 'convergence', round, score, measure, early });
  return { state: { ...state, convergence, earlyConsensus: early, stage }, events };
}

/** A vote counted; the first vote to reach consensus is checked for hollowness when the trickster is on. */
function voted(state: ArenaState, pass: ArenaPass, ballots: Record<string, Ballot>, events: ArenaEvent[]): Step {
  const outcome = countVotes(activeIds(state), ballots, state.config.consensus);
  const votes = [...state.votes, { pass, ballots, outcome }];
  events.push({ kind: 'voted', pass, ...outcome });
  const next = { ...state, votes };
  if (pass === 'T') {
    const before = state.votes[state.votes.length - 1];
    const afterChallenge: AfterChallenge = !outcome.reached
      ? 'broken'
      : outcome.leader === before?.outcome.leader
        ? 'held'
        : 'moved';
    const hollow = state.hollow ? { ...state.hollow, afterChallenge } : state.hollow;
    // The re-vote belongs to the round whose vote was challenged: its judgment closes that round.
    return { state: { ...next, hollow, stage: { kind: 'judge', pass: before?.pass ?? 'main' } }, events };
  }
  if (state.config.trickster && state.hollow === null && outcome.reached) {
    const hollow = checkHollow(next, outcome.leader);
    events.push({ kind: 'hollow_check', ...hollow });
    return {
      state: { ...next, hollow, stage: hollow.detected ? { kind: 'trickster' } : { kind: 'judge', pass } },
      events,
    };
  }
  return { state: { ...next, stage: { kind: 'judge', pass } }, events };
}

/** A judgment: the ranking, then the end (consensus, or a clear lead) or an extended round. */
function judged(
  state: ArenaState,
  answer: { scores: Record<string, { overall: number; reasons: string }>; summary: string },
): Step {
  const stage = state.stage;
  const pass: ArenaPass = stage.kind === 'judge' ? stage.pass : 'main';
  const vote = lastVote(state);
  const overall = Object.fromEntries(Object.entries(answer.scores).map(([a, s]) => [a, s.overall]));
  const ranking = rankByScores(activeIds(state), overall, vote?.outcome.tally ?? {});
  const judgments = [...state.judgments, { pass, scores: answer.scores, summary: answer.summary, ranking }];
  const events: ArenaEvent[] = [{ kind: 'judged', pass, ranking }];
  const next = { ...state, judgments };
  const outcome = vote?.outcome.reached ? 'CONSENSUS' : clearLead(ranking, overall) ? 'JUDGED' : null;
  if (outcome !== null || state.extendedRounds >= state.config.maxExtendedRounds) {
    const final = outcome ?? 'SPLIT';
    events.push({ kind: 'ended', outcome: final });
    return { state: { ...next, outcome: final, stage: { kind: 'done' } }, events };
  }
  const extendedRounds = state.extendedRounds + 1;
  const round = `X${extendedRounds}` as const;
  events.push({ kind: 'extended', round });
  return { state: { ...next, extendedRounds, stage: { kind: 'revision', round } }, events };
}
