import { type AskInfo, type PlannedCall, type Protocol, plannedKey, type StopCause } from '../../engine/protocol';
import type { LlmRequest } from '../../ports/llm';
import type { AnalysisOutput } from '../analysis';
import { CruxInputError } from '../errors';
import type { CruxEvent } from '../events';
import type { CruxInput } from '../inputs';
import { type CruxState, isOpen, type ThreadState } from '../state';
import { pendingCruxChecks } from '../crux-review';
import { globalStop, isDevilsAdvocate } from '../honesty';
import { pendingChecks, unrelatedPairs } from '../relations';
import { advance } from '../step';
import type { AgentMove } from './answer';
import { analysisOutputTokens, checkAnalysis, checkMove, prepareAnalysis } from './answer-checks';
import { agentTurnRequest, analysisRequest, type TurnContext } from './brief';
import { DEVILS_ADVOCATE_PROMPT } from './devils-advocate-prompt';
import { gradingRuleOf } from './grading-rule';
import { type LabelsAnswer, labelsDue, labelsInput, labelsRequest } from './labels-request';
import { type CruxCheckAnswer, cruxCheckRequest, type ReviewAnswer, reviewInput, reviewRequest } from './review-request';
import {
  type RelationAnswer,
  type RelationCheckAnswer,
  relationCheckRequest,
  relationRequest,
} from './relation-request';
import { nextTurn, nextTurns, type Turn } from './scheduler';
import { isoDay, subjectOrTopic } from './subject';

export interface PersonaPrompt {
  systemPrompt: string;
  tier: 'fast' | 'standard' | 'deep';
  interests: readonly string[];
}

/** What a live crux run adds to the protocol's state: the thread proposals already offered. */
export interface CruxRunState {
  crux: CruxState;
  spawnOffered: Set<string>;
}

export type CruxAsk =
  | { kind: 'analysis'; thread: string }
  | { kind: 'turn'; turn: Turn }
  /** The cross-thread analysis of a pair of crystallized cruxes: its first call, then its check. */
  | { kind: 'relation'; a: string; b: string }
  | { kind: 'relation_check'; a: string; b: string }
  /** The coalitions' labels, once the debate has ended with some. */
  | { kind: 'labels' }
  /** Self-correction: an agent asked whether a crystallized crux stands, and the crystallizer's review of a challenge. */
  | { kind: 'crux_check'; thread: string; agent: string }
  | { kind: 'review'; thread: string };

/** How a pair of cruxes is named in a round record and a failure record: `t1+t2`. */
const pairName = (a: string, b: string) => `${a}+${b}`;
function pairFrom(name: string): { a: string; b: string } | null {
  const [a, b, ...rest] = name.split('+');
  return a && b && rest.length === 0 ? { a, b } : null;
}

/** The relation calls due: second calls first (they may merge a crux), then pairs not yet looked at. */
function relationAsks(state: CruxState): CruxAsk[] {
  return [
    ...pendingChecks(state).map((r): CruxAsk => ({ kind: 'relation_check', a: r.a, b: r.b })),
    ...unrelatedPairs(state).map((p): CruxAsk => ({ kind: 'relation', a: p.a, b: p.b })),
  ];
}

/**
 * The calls that come after every thread has closed: the cross-thread analysis of the cruxes, then,
 * once it has merged what it merges, one call to label the coalitions that are left.
 */
function closingAsks(state: CruxState): CruxAsk[] {
  // Reviews of challenged cruxes first, then each crux version put to an agent, then the relations.
  const due: CruxAsk[] = [
    ...state.threads.filter((t) => t.awaitingReview).map((t): CruxAsk => ({ kind: 'review', thread: t.id })),
    ...pendingCruxChecks(state).map((c): CruxAsk => ({ kind: 'crux_check', ...c })),
    ...relationAsks(state),
  ];
  if (state.threads.some(isOpen) || due.length > 0) return due;
  return labelsDue(state) ? [{ kind: 'labels' }] : [];
}

/** How an ask is named in a round record and a failure record (the planned call a resume matches). */
function plannedOf(ask: CruxAsk): PlannedCall {
  switch (ask.kind) {
    case 'analysis':
      return { kind: 'analysis', thread: ask.thread, agent: null };
    case 'turn':
      return { kind: 'turn', thread: ask.turn.thread, agent: ask.turn.agent };
    case 'relation':
    case 'relation_check':
      return { kind: ask.kind, thread: pairName(ask.a, ask.b), agent: null };
    case 'labels':
      return { kind: 'labels', thread: 'coalitions', agent: null };
    case 'crux_check':
      return { kind: 'crux_check', thread: ask.thread, agent: ask.agent };
    case 'review':
      return { kind: 'review', thread: ask.thread, agent: null };
  }
}

export interface CruxRunSetup {
  subject: Parameters<typeof subjectOrTopic>[0];
  topic: string;
  agents: readonly { id: string }[];
  limits: { maxMessages: number; stagnationTurns: number };
  personas: ReadonlyMap<string, PersonaPrompt>;
  crystallizer: PersonaPrompt;
  /** Milliseconds (for today's date in every request). */
  now: () => number;
}

/** A turn that failed this many times in a row marks its agent degraded. */
const FAILURES_BEFORE_DEGRADED = 2;
/** A thread whose analysis failed this many times is closed STALE. */
const ANALYSIS_ATTEMPTS = 3;

/**
 * The crux protocol as a tenant of the one runner: the pure step and scheduler of `core/crux`, the
 * requests of `core/crux/live`, and the rules of a live debate that are the protocol's own (a thread
 * whose analysis keeps failing goes STALE; a REFRAME taken up by another agent proposes a thread).
 */
export function cruxProtocol(setup: CruxRunSetup): Protocol<CruxRunState, CruxInput, CruxAsk> {
  const persona = (agent: string, state?: CruxState): PersonaPrompt => {
    const found = setup.personas.get(agent);
    if (found) return found;
    // The devil's advocate joined during the debate; it has no persona of the workspace.
    if (state && isDevilsAdvocate(state, agent)) return DEVILS_ADVOCATE_PROMPT;
    throw new Error(`no persona for agent ${agent}`);
  };
  const interests = () =>
    new Map(setup.agents.map((a) => [a.id, new Set(persona(a.id).interests.map((w) => w.toLowerCase()))]));
  const context = (): TurnContext => ({
    subject: subjectOrTopic(setup.subject, setup.topic),
    today: isoDay(setup.now()),
    gradingRuleOf: (agent) => {
      const found = setup.personas.get(agent);
      return found ? gradingRuleOf(found.systemPrompt) : null;
    },
  });
  const threadOf = (state: CruxState, id: string) => state.threads.find((t) => t.id === id) as ThreadState;

  return {
    name: 'crux',
    version: 1,
    degradeAfter: FAILURES_BEFORE_DEGRADED,

    step(run, input) {
      let events: CruxEvent[];
      try {
        events = advance(run.crux, input).events;
      } catch (error) {
        // Only an analysis is refused before it changes anything; any other refusal may have left
        // the state half-changed, so it ends the run rather than being counted as a failed turn.
        if (error instanceof CruxInputError && input.kind !== 'crystallize_output')
          throw new Error(`the debate cannot take this input: ${error.message}`);
        throw error;
      }
      if (input.kind === 'propose_thread') run.spawnOffered.add(spawnKey(input.by, input.topic));
      return { state: run, events };
    },

    isRefusal: (error) => error instanceof CruxInputError,

    // Done once every thread is closed and the cross-thread analysis has looked at every pair.
    done: (run) => !run.crux.threads.some(isOpen) && closingAsks(run.crux).length === 0,

    capReached(run) {
      const { maxMessages } = setup.limits;
      return run.crux.counters.messagesTotal >= maxMessages ? `reached the limit of ${maxMessages} messages` : null;
    },

    stopRule(run) {
      let stalled = 0;
      for (let i = run.crux.transcript.length - 1; i >= 0; i--) {
        const entry = run.crux.transcript[i];
        if (!entry || entry.author === null) continue;
        if (entry.accepted) break;
        stalled++;
      }
      if (stalled >= setup.limits.stagnationTurns)
        return `stagnated: ${stalled} move${stalled === 1 ? '' : 's'} in a row refused`;
      // The debate-wide rules (core/crux/honesty.ts), the same a replay applies after each line.
      return globalStop(run.crux);
    },

    asks(run, view) {
      const state = run.crux;
      const options = { degraded: view.degraded, interests: interests() };
      // Never plan more turns than the message limit has room for, so the limit holds exactly.
      const room = Math.max(0, setup.limits.maxMessages - state.counters.messagesTotal);
      const asksOf = (analyses: string[], turns: Turn[], relations: CruxAsk[]): CruxAsk[] => [
        ...analyses.map((thread): CruxAsk => ({ kind: 'analysis', thread })),
        ...relations,
        ...turns.slice(0, room).map((turn): CruxAsk => ({ kind: 'turn', turn })),
      ];
      if (view.pending.length > 0) {
        // A debate killed mid-round first finishes that round: the same calls in the same order.
        const analyses: string[] = [];
        const turns: Turn[] = [];
        const pending = new Set(view.pending.map(plannedKey));
        const relations = closingAsks(state).filter((ask) => pending.has(plannedKey(plannedOf(ask))));
        for (const p of view.pending) {
          const thread = state.threads.find((t) => t.id === p.thread);
          if (!thread || !isOpen(thread)) continue;
          if (p.kind === 'analysis' && thread.awaitingAnalysis) analyses.push(thread.id);
          if (p.kind === 'turn' && !thread.awaitingAnalysis) {
            const turn = nextTurn(state, thread, options);
            if (turn) turns.push(turn);
          }
        }
        if (analyses.length + turns.length + relations.length > 0)
          return { asks: asksOf(analyses, turns, relations), resumed: true };
      }
      return {
        asks: asksOf(
          state.threads.filter((t) => isOpen(t) && t.awaitingAnalysis).map((t) => t.id),
          nextTurns(state, options),
          closingAsks(state),
        ),
        resumed: false,
      };
    },

    describe(ask): AskInfo {
      if (ask.kind === 'crux_check') {
        // An agent's call, metered to it, but a failure does not count against it: it is a side question.
        const place = `crux_check:${ask.thread}`;
        return { agent: ask.agent, meterAgent: ask.agent, purpose: place, failedAt: place, planned: plannedOf(ask), degradable: false };
      }
      if (ask.kind === 'labels' || ask.kind === 'relation' || ask.kind === 'relation_check' || ask.kind === 'review') {
        const planned = plannedOf(ask);
        const place = ask.kind === 'labels' ? 'labels' : `${ask.kind}:${planned.thread}`;
        return { agent: 'crystallizer', meterAgent: null, purpose: place, failedAt: place, planned, degradable: false };
      }
      if (ask.kind === 'analysis') {
        return {
          agent: 'crystallizer',
          meterAgent: null,
          purpose: `analysis:${ask.thread}`,
          failedAt: `analysis:${ask.thread}`,
          planned: { kind: 'analysis', thread: ask.thread, agent: null },
          degradable: false,
        };
      }
      const { thread, agent } = ask.turn;
      return {
        agent,
        meterAgent: agent,
        purpose: `turn:${thread}`,
        failedAt: thread,
        planned: { kind: 'turn', thread, agent },
        degradable: true,
        drafts: true,
      };
    },

    request(run, ask): LlmRequest<unknown> {
      const state = run.crux;
      if (ask.kind === 'labels') return labelsRequest(state, setup.crystallizer, context()) as LlmRequest<unknown>;
      if (ask.kind === 'crux_check')
        return cruxCheckRequest(
          state,
          threadOf(state, ask.thread),
          ask.agent,
          persona(ask.agent, state),
          context(),
        ) as LlmRequest<unknown>;
      if (ask.kind === 'review')
        return reviewRequest(state, threadOf(state, ask.thread), setup.crystallizer, context()) as LlmRequest<unknown>;
      if (ask.kind === 'relation')
        return relationRequest(state, ask, setup.crystallizer, context()) as LlmRequest<unknown>;
      if (ask.kind === 'relation_check') {
        const relation = state.relations.find((r) => r.a === ask.a && r.b === ask.b);
        if (!relation) throw new Error(`no relation of ${ask.a} and ${ask.b} to check`);
        return relationCheckRequest(state, relation, setup.crystallizer, context()) as LlmRequest<unknown>;
      }
      if (ask.kind === 'analysis') {
        // Held to the agents of this debate (its maps are keyed by their ids), with room for a
        // position and a counterfactual per agent.
        const request = analysisRequest(state, threadOf(state, ask.thread), setup.crystallizer, context());
        return {
          ...request,
          maxTokens: Math.max(request.maxTokens, analysisOutputTokens(state.agents.length)),
          prepare: prepareAnalysis(state),
          check: checkAnalysis(state),
        } as LlmRequest<unknown>;
      }
      const thread = threadOf(state, ask.turn.thread);
      return {
        ...agentTurnRequest(state, thread, ask.turn, persona(ask.turn.agent, state), context()),
        check: checkMove(state),
      } as LlmRequest<unknown>;
    },

    answer(run, ask, value): CruxInput {
      // Labels for member sets that are no coalition's are dropped, not refused: the rest still count.
      if (ask.kind === 'labels')
        return { kind: 'coalition_labels', labels: labelsInput(run.crux, value as LabelsAnswer) };
      if (ask.kind === 'crux_check') {
        const check = value as CruxCheckAnswer;
        if (!check.challenge || !check.reason)
          return { kind: 'crux_check', thread: ask.thread, agent: ask.agent, outcome: 'ACCEPTED' };
        return {
          kind: 'message',
          thread: ask.thread,
          agent: ask.agent,
          move: 'CHALLENGE_CRUX',
          content: check.content,
          meta: { cruxChallenge: check.reason },
        };
      }
      if (ask.kind === 'review')
        return { kind: 'crux_review', thread: ask.thread, answer: reviewInput(value as ReviewAnswer) };
      if (ask.kind === 'relation') {
        const answer = value as RelationAnswer;
        return {
          kind: 'crux_relation',
          a: ask.a,
          b: ask.b,
          relation: answer.relation,
          ...(answer.deeper ? { from: answer.deeper === 'A' ? ask.a : ask.b } : {}),
          confidence: answer.confidence,
          sketch: answer.sketch,
        };
      }
      if (ask.kind === 'relation_check') {
        const answer = value as RelationCheckAnswer;
        return { kind: 'relation_check', a: ask.a, b: ask.b, agrees: answer.agrees, note: answer.note };
      }
      if (ask.kind === 'analysis')
        return { kind: 'crystallize_output', thread: ask.thread, output: value as AnalysisOutput };
      const move = value as AgentMove;
      return {
        kind: 'message',
        thread: ask.turn.thread,
        agent: ask.turn.agent,
        move: move.move,
        content: move.content,
        ...(move.replyTo ? { replyTo: move.replyTo } : {}),
        meta: { ...move.meta } as Record<string, unknown>,
      };
    },

    followUps(run, ask, value) {
      if (ask.kind === 'crux_check') {
        // A challenge the protocol refused leaves the crux standing: this version has had its check.
        const last = run.crux.transcript[run.crux.transcript.length - 1];
        const refused = (value as CruxCheckAnswer).challenge && last?.move === 'CHALLENGE_CRUX' && !last.accepted;
        return refused ? [{ kind: 'crux_check', thread: ask.thread, agent: ask.agent, outcome: 'GAVE_UP' }] : [];
      }
      if (ask.kind !== 'turn') return [];
      const spawn = spawnOf(run, ask.turn, value as AgentMove);
      return spawn ? [spawn] : [];
    },

    failed(_run, ask, failure) {
      if (failure.attempts < ANALYSIS_ATTEMPTS) return [];
      if (ask.kind === 'analysis') return [{ kind: 'close_thread', thread: ask.thread, status: 'STALE' }];
      // A relation nobody could establish is none; a check nobody could make confirms nothing.
      const note = `the call failed ${failure.attempts} times: ${failure.message}`;
      if (ask.kind === 'relation')
        return [{ kind: 'crux_relation', a: ask.a, b: ask.b, relation: 'NONE', confidence: 0, sketch: '', note }];
      if (ask.kind === 'relation_check') return [{ kind: 'relation_check', a: ask.a, b: ask.b, agrees: false, note }];
      // No label after three tries: the coalitions keep their numbered names.
      if (ask.kind === 'labels') return [{ kind: 'coalition_labels', labels: [] }];
      if (ask.kind === 'crux_check') return [{ kind: 'crux_check', thread: ask.thread, agent: ask.agent, outcome: 'GAVE_UP' }];
      // A challenge nobody could review is not answered: the crux waits for clarification, unvalidated.
      if (ask.kind === 'review')
        return [{ kind: 'crux_review', thread: ask.thread, answer: { needsClarification: `no review could be made (${note})` } }];
      return [];
    },

    stop(run, cause: StopCause) {
      if (!run.crux.threads.some(isOpen)) return { inputs: [], after: 'completed' };
      return { inputs: [{ kind: 'stop', reason: cause.text }], after: 'partial' };
    },

    settles(input): PlannedCall | null {
      if ((input.kind === 'message' && input.move === 'CHALLENGE_CRUX') || input.kind === 'crux_check')
        return { kind: 'crux_check', thread: input.thread, agent: input.agent };
      if (input.kind === 'crux_review') return { kind: 'review', thread: input.thread, agent: null };
      if (input.kind === 'message') return { kind: 'turn', thread: input.thread, agent: input.agent };
      if (input.kind === 'crystallize_output' || input.kind === 'close_thread')
        return { kind: 'analysis', thread: input.thread, agent: null };
      if (input.kind === 'coalition_labels') return { kind: 'labels', thread: 'coalitions', agent: null };
      if (input.kind === 'crux_relation') return { kind: 'relation', thread: pairName(input.a, input.b), agent: null };
      if (input.kind === 'relation_check')
        return { kind: 'relation_check', thread: pairName(input.a, input.b), agent: null };
      return null;
    },

    failureOf(agent, failedAt) {
      if (failedAt === 'labels')
        return { planned: { kind: 'labels', thread: 'coalitions', agent: null }, degradable: false };
      if (failedAt?.startsWith('crux_check:'))
        return { planned: { kind: 'crux_check', thread: failedAt.slice('crux_check:'.length), agent }, degradable: false };
      if (failedAt?.startsWith('review:'))
        return { planned: { kind: 'review', thread: failedAt.slice('review:'.length), agent: null }, degradable: false };
      for (const kind of ['relation_check', 'relation'] as const) {
        const pair = failedAt?.startsWith(`${kind}:`) ? pairFrom(failedAt.slice(kind.length + 1)) : null;
        if (pair) return { planned: { kind, thread: pairName(pair.a, pair.b), agent: null }, degradable: false };
      }
      if (failedAt?.startsWith('analysis:'))
        return {
          planned: { kind: 'analysis', thread: failedAt.slice('analysis:'.length), agent: null },
          degradable: false,
        };
      return failedAt ? { planned: { kind: 'turn', thread: failedAt, agent }, degradable: true } : null;
    },

    draftOf(ask, partial) {
      if (ask.kind !== 'turn' || typeof partial !== 'object' || partial === null) return null;
      const { move, content } = partial as { move?: unknown; content?: unknown };
      if (typeof content !== 'string' || content === '') return null;
      return { move: typeof move === 'string' ? move : null, content };
    },
  };
}

/**
 * A REFRAME carrying a separate question, taken up by another agent's reply, becomes a thread
 * proposal; the protocol's spawn gates decide whether it opens.
 */
function spawnOf(run: CruxRunState, turn: Turn, move: AgentMove): CruxInput | null {
  if (!move.replyTo) return null;
  const state = run.crux;
  const target = state.transcript.find((m) => m.id === move.replyTo);
  const reply = state.transcript[state.transcript.length - 1];
  const question = target?.meta?.spawnQuestion;
  if (!target || !reply?.accepted || target.move !== 'REFRAME' || typeof question !== 'string' || !target.author)
    return null;
  if (target.author === turn.agent) return null;
  if (run.spawnOffered.has(spawnKey(target.author, question))) return null;
  return {
    kind: 'propose_thread',
    id: `t${state.threads.length + 1}`,
    by: target.author,
    topic: question,
    binaryQuestion: question.trim().endsWith('?') ? question.trim() : null,
    supporters: [target.author, turn.agent],
  };
}

function spawnKey(by: string, topic: string): string {
  return `${by}\u0001${topic}`;
}
