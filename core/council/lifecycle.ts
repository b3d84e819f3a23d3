import { stakesOf } from './actions';
import { approves, type ProposalOutput } from './answers';
import { CouncilInputError } from './errors';
import { flagsOf } from './flags';
import type { CouncilAsk, CouncilEvent, CouncilInput, CouncilNeed } from './inputs';
import { consensusReached } from './thresholds';
import {
  type CouncilState,
  currentProposal,
  lastVersion,
  type ProposalState,
  type Version,
  type VersionKind,
  type WaitReason,
} from './state';
import { tiebreakOf, tiebreakWinner } from './tiebreak';
import type { CouncilAgent } from './values';
import { applyAdjustments } from './weights';

/**
 * The council's lifecycle as a pure state machine. `need` says what the task waits for now (one
 * thing at a time: the lifecycle is sequential); `step` applies the input that answers it. Every
 * automatic transition (a round decided, a limit reached) happens inside `step`, so the state a
 * runner holds between inputs always waits for something from outside.
 *
 *   PROPOSED → VERIFYING → INTEGRATING → (AWAITING_RESEARCHER) → EXECUTING → CHECKING → RECORDED
 *   or REJECTED, FAILED (REVERTED comes later, from the researcher).
 */

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** What the council waits for now. */
export function need(state: CouncilState): CouncilNeed {
  if (state.phase === 'done') return { kind: 'done' };
  if (state.phase === 'proposing') return { kind: 'ask', ask: { role: 'proposal', agent: 'executor' } };
  if (state.phase === 'recording') return { kind: 'ask', ask: { role: 'episode', agent: 'integrator' } };
  const p = currentProposal(state);
  if (!p?.awaiting) throw new Error('a proposal in deliberation always waits for something');
  const version = lastVersion(p).n;
  const ask = (a: CouncilAsk): CouncilNeed => ({ kind: 'ask', ask: a });
  switch (p.awaiting.kind) {
    case 'review':
      return ask({ role: 'review', agent: p.awaiting.agent, proposal: p.id, version });
    case 'revision':
      return ask({ role: 'revision', agent: 'executor', proposal: p.id, version });
    case 'compromise':
      return ask({ role: 'compromise', agent: 'integrator', proposal: p.id, version });
    case 'outcome':
      return ask({ role: 'outcome', agent: 'verifier', proposal: p.id });
    case 'researcher':
      return { kind: 'researcher', proposal: p.id, reason: p.awaiting.reason };
    case 'execute':
      return { kind: 'execute', proposal: p.id, action: p.awaiting.action };
    case 'check':
      return { kind: 'check', proposal: p.id };
  }
}

/** How a need reads in an error: "a review by the verifier of p1". */
export function describeNeed(n: CouncilNeed): string {
  switch (n.kind) {
    case 'done':
      return 'nothing more (the task is over)';
    case 'researcher':
      return `the researcher's decision on ${n.proposal}`;
    case 'execute':
      return `the execution of action ${n.action + 1} of ${n.proposal}`;
    case 'check':
      return `the postcondition checks of ${n.proposal}`;
    case 'ask': {
      const a = n.ask;
      if (a.role === 'proposal') return "the executor's next proposal (or the end of its proposals)";
      if (a.role === 'episode') return "the integrator's episode";
      if (a.role === 'review') return `a review by the ${a.agent} of ${a.proposal}`;
      if (a.role === 'revision') return `the executor's revision of ${a.proposal}`;
      if (a.role === 'compromise') return `the integrator's compromise on ${a.proposal}`;
      return `the verifier's outcome review of ${a.proposal}`;
    }
  }
}

/** Whether an answer counts as a model call. */
function isCall(input: CouncilInput): boolean {
  if (input.kind === 'finish') return input.call;
  return ['proposal', 'review', 'revision', 'compromise', 'outcome', 'episode'].includes(input.kind);
}

export function step(state: CouncilState, input: CouncilInput): { state: CouncilState; events: CouncilEvent[] } {
  if (state.phase === 'done') throw new CouncilInputError(`the task is over; ${input.kind} cannot be taken`);
  const s = clone(state);
  const events: CouncilEvent[] = [];
  if (input.kind === 'stop') {
    s.phase = 'done';
    s.stopped = input.reason;
    events.push({ kind: 'stopped', reason: input.reason });
    return { state: s, events };
  }
  const due = need(s);
  const refuse = (): never => {
    throw new CouncilInputError(`expected ${describeNeed(due)}, got ${describeInput(input)}`);
  };
  if (isCall(input)) s.calls++;
  switch (input.kind) {
    case 'proposal': {
      if (due.kind !== 'ask' || due.ask.role !== 'proposal') return refuse();
      const p: ProposalState = {
        id: `p${s.proposals.length + 1}`,
        status: 'PROPOSED',
        versions: [],
        ladder: 0,
        revisions: 0,
        tiebreak: null,
        decision: null,
        decidedBy: null,
        researcherNote: null,
        awaiting: null,
        results: [],
        postconditions: null,
        outcome: null,
        executed: false,
        checked: false,
      };
      s.proposals.push(p);
      s.phase = 'deliberating';
      submit(s, p, 'proposal', 'executor', input.output, events);
      break;
    }
    case 'finish':
      if (due.kind !== 'ask' || due.ask.role !== 'proposal') return refuse();
      s.phase = 'recording';
      break;
    case 'review': {
      if (due.kind !== 'ask' || due.ask.role !== 'review' || due.ask.agent !== input.agent) return refuse();
      const p = currentProposal(s) as ProposalState;
      const v = lastVersion(p);
      v.reviews[input.agent] = input.output;
      events.push({
        kind: 'reviewed',
        proposal: p.id,
        version: v.n,
        agent: input.agent,
        decision: input.output.decision,
      });
      const nextReviewer = v.reviewers.find((a) => !v.reviews[a]);
      if (nextReviewer) wait(p, { kind: 'review', agent: nextReviewer });
      else decideRound(s, p, events);
      break;
    }
    case 'revision': {
      if (due.kind !== 'ask' || due.ask.role !== 'revision') return refuse();
      const p = currentProposal(s) as ProposalState;
      p.revisions++;
      submit(s, p, 'revision', 'executor', input.output, events);
      break;
    }
    case 'compromise': {
      if (due.kind !== 'ask' || due.ask.role !== 'compromise') return refuse();
      submit(s, currentProposal(s) as ProposalState, 'compromise', 'integrator', input.output, events);
      break;
    }
    case 'researcher': {
      if (due.kind !== 'researcher') return refuse();
      if (input.proposal !== due.proposal)
        throw new CouncilInputError(
          `the researcher's decision names ${input.proposal}, but ${due.proposal} is the one waiting`,
        );
      const p = currentProposal(s) as ProposalState;
      p.researcherNote = input.note;
      decide(s, p, input.decision === 'approve' ? 'approved' : 'rejected', 'researcher', events);
      break;
    }
    case 'executed': {
      if (due.kind !== 'execute' || input.proposal !== due.proposal || input.result.action !== due.action)
        return refuse();
      const p = currentProposal(s) as ProposalState;
      p.results.push(input.result);
      events.push({ kind: 'executed', proposal: p.id, action: input.result.action, ok: input.result.ok });
      const more = input.result.action + 1 < lastVersion(p).output.actions.length;
      // A failed action ends the execution: what follows may rest on it. The check says what holds.
      if (input.result.ok && more) wait(p, { kind: 'execute', action: input.result.action + 1 });
      else {
        p.executed = true;
        wait(p, { kind: 'check' });
      }
      break;
    }
    case 'checked': {
      if (due.kind !== 'check' || input.proposal !== due.proposal) return refuse();
      const p = currentProposal(s) as ProposalState;
      p.postconditions = input.postconditions;
      wait(p, { kind: 'outcome' });
      break;
    }
    case 'outcome': {
      if (due.kind !== 'ask' || due.ask.role !== 'outcome') return refuse();
      const p = currentProposal(s) as ProposalState;
      p.outcome = input.output;
      p.checked =
        input.output.confirmed && p.results.every((r) => r.ok) && (p.postconditions ?? []).every((c) => c.holds);
      settle(s, p, p.checked ? 'RECORDED' : 'FAILED', events);
      break;
    }
    case 'episode': {
      if (due.kind !== 'ask' || due.ask.role !== 'episode') return refuse();
      s.episode = input.output;
      const adjusted = applyAdjustments(s.weights, input.output.weightAdjustments);
      s.weights = adjusted.weights;
      s.applied = adjusted.applied;
      s.refused = adjusted.refused;
      s.phase = 'done';
      events.push({ kind: 'recorded' });
      break;
    }
  }
  checkLimits(s, events);
  return { state: s, events };
}

function describeInput(input: CouncilInput): string {
  switch (input.kind) {
    case 'review':
      return `a review by the ${input.agent}`;
    case 'researcher':
      return `the researcher's decision on ${input.proposal}`;
    case 'executed':
      return `the execution of action ${input.result.action + 1} of ${input.proposal}`;
    case 'checked':
      return `the checks of ${input.proposal}`;
    case 'finish':
      return 'the end of the proposals';
    default:
      return `a ${input.kind}`;
  }
}

function wait(p: ProposalState, awaiting: NonNullable<ProposalState['awaiting']>): void {
  p.awaiting = awaiting;
  p.status =
    awaiting.kind === 'review'
      ? awaiting.agent === 'integrator'
        ? 'INTEGRATING'
        : 'VERIFYING'
      : awaiting.kind === 'revision' || awaiting.kind === 'compromise'
        ? 'PROPOSED'
        : awaiting.kind === 'researcher'
          ? 'AWAITING_RESEARCHER'
          : awaiting.kind === 'execute'
            ? 'EXECUTING'
            : 'CHECKING';
}

/** A new version: flags first (before any reviewer sees it), then its reviewers in their order. */
function submit(
  s: CouncilState,
  p: ProposalState,
  kind: VersionKind,
  author: CouncilAgent,
  output: ProposalOutput,
  events: CouncilEvent[],
): void {
  const stakes = stakesOf(output.actions);
  const reviewers: CouncilAgent[] = author === 'integrator' ? ['executor', 'verifier'] : ['verifier', 'integrator'];
  const version: Version = {
    n: p.versions.length + 1,
    kind,
    author,
    output,
    stakes,
    flags: flagsOf(output, stakes, s.header.history),
    reviewers,
    reviews: {},
  };
  p.versions.push(version);
  p.status = 'PROPOSED';
  events.push({ kind: 'version', proposal: p.id, version: version.n, by: author, stakes, flags: version.flags });
  wait(p, { kind: 'review', agent: reviewers[0] as CouncilAgent });
}

function raise(p: ProposalState, level: ProposalState['ladder'], events: CouncilEvent[]): void {
  if (level <= p.ladder) return;
  p.ladder = level;
  events.push({ kind: 'ladder', proposal: p.id, level });
}

function toResearcher(p: ProposalState, reason: WaitReason, events: CouncilEvent[]): void {
  p.decision = 'awaiting_researcher';
  wait(p, { kind: 'researcher', reason });
  events.push({ kind: 'awaiting_researcher', proposal: p.id, reason });
}

/** Why the task must stop deliberating, or null. */
export function limitReached(s: CouncilState): string | null {
  if (s.rounds >= s.header.config.maxRounds)
    return `${s.rounds} rounds of votes (the limit is ${s.header.config.maxRounds})`;
  if (s.calls >= s.header.config.maxCalls) return `${s.calls} model calls (the limit is ${s.header.config.maxCalls})`;
  return null;
}

/** All votes of a round are in: the stakes' threshold, else the next rung of the ladder. */
function decideRound(s: CouncilState, p: ProposalState, events: CouncilEvent[]): void {
  s.rounds++;
  const v = lastVersion(p);
  if (consensusReached(v)) {
    // High stakes always go to the researcher; a flagged medium-stakes proposal too.
    if (v.stakes === 'high') toResearcher(p, 'stakes', events);
    else if (v.stakes === 'medium' && v.flags.length > 0) toResearcher(p, 'flags', events);
    else decide(s, p, 'approved', 'consensus', events);
    return;
  }
  if (v.kind !== 'compromise') {
    // A limit is met where the council would ask for another version: the researcher takes it from here.
    const limit = limitReached(s);
    if (limit !== null) {
      s.limit = limit;
      events.push({ kind: 'limit', reason: limit });
      p.tiebreak = tiebreakOf(v.author, v.output, v.reviews, s.weights);
      raise(p, 4, events);
      toResearcher(p, 'limit', events);
      return;
    }
    if (p.revisions < s.header.config.discussionRounds) {
      raise(p, 1, events);
      wait(p, { kind: 'revision' });
    } else {
      raise(p, 2, events);
      wait(p, { kind: 'compromise' });
    }
    return;
  }
  p.tiebreak = tiebreakOf(v.author, v.output, v.reviews, s.weights);
  if (v.stakes !== 'low') {
    // Medium and high stakes: the tiebreak is only advice; the researcher decides.
    raise(p, 4, events);
    toResearcher(p, 'ladder', events);
    return;
  }
  const winner = tiebreakWinner(p.tiebreak);
  if (winner === null) {
    raise(p, 4, events);
    toResearcher(p, 'tie', events);
    return;
  }
  raise(p, 3, events);
  decide(s, p, winner === 'proposal' ? 'approved' : 'rejected', 'tiebreak', events);
}

function decide(
  s: CouncilState,
  p: ProposalState,
  decision: 'approved' | 'rejected',
  decidedBy: 'consensus' | 'tiebreak' | 'researcher',
  events: CouncilEvent[],
): void {
  const v = lastVersion(p);
  p.decision = decision;
  p.decidedBy = decidedBy;
  events.push({ kind: 'decided', proposal: p.id, version: v.n, decision, decidedBy, note: p.researcherNote });
  if (decision === 'rejected') {
    settle(s, p, 'REJECTED', events);
    return;
  }
  // The rule every path must keep: nothing high-stakes runs on the agents' word alone.
  if (v.stakes === 'high' && decidedBy !== 'researcher')
    throw new Error(`${p.id} is high stakes and was not approved by the researcher`);
  wait(p, { kind: 'execute', action: 0 });
}

function settle(
  s: CouncilState,
  p: ProposalState,
  status: 'RECORDED' | 'REJECTED' | 'FAILED',
  events: CouncilEvent[],
): void {
  p.status = status;
  p.awaiting = null;
  s.phase = 'proposing';
  events.push({ kind: 'settled', proposal: p.id, status });
}

/** Between proposals, a limit ends the deliberation: the task goes on to its episode. */
function checkLimits(s: CouncilState, events: CouncilEvent[]): void {
  if (s.phase !== 'proposing') return;
  const limit = limitReached(s);
  if (limit === null) return;
  if (s.limit === null) {
    s.limit = limit;
    events.push({ kind: 'limit', reason: limit });
  }
  s.phase = 'recording';
}

/** Whether a proposal had dissent: a concern or a rejection in any of its rounds. */
export function hadDissent(p: ProposalState): boolean {
  return p.versions.some((v) =>
    Object.values(v.reviews).some(
      (r) => r && (!approves(r.decision) || r.decision === 'approve_with_concerns' || r.concerns.length > 0),
    ),
  );
}
