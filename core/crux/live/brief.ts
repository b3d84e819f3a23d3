import type { LlmBrief, LlmMessage, LlmRequest } from '../../ports/llm';
import type { AgendaItem } from '../agenda';
import { attentionOf } from '../attention';
import type { AnalysisOutput } from '../analysis';
import type { CruxState, ThreadState, TranscriptEntry } from '../state';
import { MOVES_BY_STAGE, type Move, type Stage } from '../vocabulary';
import { type AgentMove, agentMoveSchema, crystallizerSchemaFor } from './answer';
import { prepareMove } from './answer-checks';
import type { LabelsBrief } from './labels-request';
import type { RelationBrief, RelationCheckBrief } from './relation-request';
import type { CruxCheckBrief, ReviewBrief } from './review-request';
import type { BaselineBrief } from './baseline';
import type { Ask, Turn } from './scheduler';
import { type DebateContext, nameOf, rosterLines } from './subject';
import { crystallizerSystem, debaterSystemParts } from './system-prompt';

/**
 * What an agent is told on its turn, as data. The model gets it as words in the last message; the
 * data itself rides along as the request's `brief`, so the offline simulator can act on it without
 * parsing prose.
 */
export interface TurnBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'turn';
  topic: string;
  /** YYYY-MM-DD; the simulator dates its falsifiers from it. */
  today?: string;
  thread: {
    id: string;
    topic: string;
    stage: Stage;
    binaryQuestion: string | null;
    messagesInStage: number;
    budget: number;
  };
  agent: {
    id: string;
    name: string;
    side: 'YES' | 'NO' | 'UNCERTAIN' | null;
    committed: boolean;
    hasFalsifier: boolean;
  };
  topClaim: { statement: string; side: 'YES' | 'NO' | 'UNCERTAIN'; confidence: number } | null;
  defaultHorizon: string | null;
  allowedMoves: readonly Move[];
  ask: Ask;
  attempt: number;
  lastBlock: { reason: string; detail: string; move: Move | null } | null;
  /** Other agents' current sides in this thread (for steelmans and challenges). */
  others: { id: string; name: string; side: 'YES' | 'NO' | 'UNCERTAIN' | null }[];
  /**
   * The thread's last few accepted messages, and whether the agent's attention takes each in (a reply
   * names one it read). The model reads the transcript, filtered the same way; the simulator reads this.
   */
  recent: { id: string; author: string | null; move: Move | null; seen: boolean }[];
  /** Accepted messages of the thread below the agent's attention, left out of what it reads. */
  unseen: number;
  /** The open question the agenda manager has this thread work on next (core/crux/agenda.ts). */
  agenda: AgendaItem | null;
}

export interface AnalysisBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'analysis';
  topic: string;
  thread: { id: string; topic: string; binaryQuestion: string | null };
  commitments: Record<string, { side: string; confidence: number; horizon: string; statement: string }>;
  falsifiers: Record<string, { metric: string; threshold: string; deadline: string }>;
}

export function briefOf(state: CruxState, thread: ThreadState, turn: Turn, today?: string): TurnBrief {
  const profile = state.agents.find((a) => a.id === turn.agent);
  const stage = thread.status as Stage;
  const read = attentionOf(state, thread.id, turn.agent);
  return {
    protocol: 'crux',
    kind: 'turn',
    topic: state.topic,
    ...(today ? { today } : {}),
    thread: {
      id: thread.id,
      topic: thread.topic,
      stage,
      binaryQuestion: thread.binaryQuestion,
      messagesInStage: thread.messages[stage],
      budget: thread.budgets[stage],
    },
    agent: {
      id: turn.agent,
      name: profile?.name ?? turn.agent,
      side: thread.stances[turn.agent]?.side ?? null,
      committed: thread.commitments[turn.agent] !== undefined,
      hasFalsifier: thread.falsifiers[turn.agent] !== undefined,
    },
    topClaim: profile?.topClaim ?? null,
    defaultHorizon: profile?.defaultHorizon ?? null,
    allowedMoves: MOVES_BY_STAGE[stage],
    ask: turn.ask,
    attempt: turn.attempt,
    lastBlock: turn.lastBlock ?? null,
    others: state.agents
      .filter((a) => a.id !== turn.agent)
      .map((a) => ({ id: a.id, name: a.name, side: thread.stances[a.id]?.side ?? null })),
    recent: read.slice(-6).map(({ entry: m, seen }) => ({ id: m.id, author: m.author, move: m.move, seen })),
    unseen: read.filter((a) => !a.seen).length,
    agenda: state.agenda[thread.id] ?? null,
  };
}

/** Said when the agent's attention left messages out, so it does not take the transcript for all there is. */
function unseenInWords(unseen: number): string {
  if (unseen === 0) return '';
  return `${unseen} message${unseen === 1 ? '' : 's'} of this thread outside your interests ${unseen === 1 ? 'is' : 'are'} not shown; everything addressed to you is.\n`;
}

/**
 * The agenda in words, said only when it asks for more than the thread's own question or topic
 * (which the turn already names), so a debate without open questions reads as it did.
 */
function agendaInWords(agenda: AgendaItem | null): string {
  if (!agenda || agenda.source === 'thread' || agenda.source === 'topic') return '';
  return `\nAgenda: the open question this thread should take up next is ${quoted(agenda.question)} (${agenda.reason}).`;
}

function quoted(text: string): string {
  return `"${text}"`;
}

function askInWords(state: CruxState, thread: ThreadState, ask: Ask, context: TurnContext): string {
  const name = (id: string) => nameOf(state, id);
  switch (ask.kind) {
    case 'DISCUSS':
      return 'Move the discovery forward on the idea itself: a CLAIM, a CHALLENGE of a specific message (replyTo), a CLARIFY, or a REFRAME.';
    case 'PROPOSE_CRUX': {
      const agenda = state.agenda[thread.id];
      if (!thread.binaryQuestion && agenda && agenda.source !== 'topic' && agenda.source !== 'thread')
        return `Propose the crux: PROPOSE_CRUX with meta.question. The agenda puts ${quoted(agenda.question)} forward; propose it (or a sharper wording) if it is the crux here, or the yes/no question about the idea you would put instead, ending in "?".`;
      return thread.binaryQuestion
        ? `The thread's question so far is ${quoted(thread.binaryQuestion)}. If it is the crux, PROPOSE_CRUX it (or a sharper wording) in meta.question to move to the lock; if not, propose the question you would put instead.`
        : 'Propose the crux: PROPOSE_CRUX with meta.question, one yes/no question about the idea ending in "?" whose answer would change what the researcher does.';
    }
    case 'COMMIT_POSITION':
      return `Commit: COMMIT_POSITION with meta.side, meta.confidence, meta.horizon and, unless UNCERTAIN, meta.falsifier with a deadline after ${context.today}.`;
    case 'DECLARE_FALSIFIER':
      return `Say what would prove you wrong: DECLARE_FALSIFIER with meta.falsifier {metric, threshold (with a number), deadline after ${context.today}}.`;
    case 'STEELMAN': {
      const rule = context.gradingRuleOf?.(ask.target) ?? null;
      const how = rule ? ` ${name(ask.target)} grades steelmans by this rule: ${quoted(rule)}` : '';
      return `Steelman ${name(ask.target)}: STEELMAN with meta.steelmanTarget "${ask.target}", restating their view at its strongest: their claim (meta.claimRepresented), its strongest reason (meta.strongestReason) and what would change their mind (meta.falsifierRepresented).${how}`;
    }
    case 'GRADE_STEELMAN':
      return `Grade ${name(ask.from)}'s steelman of your view by your grading rule: GRADE_STEELMAN with meta.steelmanGrade, and meta.corrections saying what it missed unless ACCURATE.`;
    case 'CLARIFY':
      return 'Clarify what is still unclear in the crux (CLARIFY): a term, a number or what would count as a YES.';
    case 'PROVIDE_EVIDENCE': {
      const target = ask.targetFalsifierOf;
      const falsifier = target ? thread.falsifiers[target] : undefined;
      const against =
        target && falsifier
          ? `, ideally against the falsifier of ${name(target)} (${falsifier.metric}: ${falsifier.threshold} by ${falsifier.deadline}; meta.targetFalsifierOf "${target}")`
          : '';
      return (
        `Bring evidence not yet in the transcript (PROVIDE_EVIDENCE with meta.evidenceSource)${against}, ` +
        'or UPDATE_POSITION / CONCEDE naming the message that moved you (replyTo). If nothing more can be settled ' +
        'before the data in the falsifiers exists, say so with UPDATE_POSITION keeping your side (newPosition equal to ' +
        'priorPosition) and the date it will be known.'
      );
    }
    case 'CHALLENGE_EVIDENCE':
      return `Challenge ${name(ask.author)}'s evidence in ${ask.replyTo} (CHALLENGE_EVIDENCE with replyTo "${ask.replyTo}"), or CONCEDE it with replyTo "${ask.replyTo}".`;
  }
}

/**
 * A moderator line as a live agent reads it. The protocol's texts are fixed templates (a replay must
 * be deterministic); here they are said so that they never ask for a move the stage refuses, and
 * with names rather than bare ids.
 */
function moderatorLine(state: CruxState, thread: ThreadState, entry: TranscriptEntry): string {
  const to = entry.target ? `${nameOf(state, entry.target)}: ` : '';
  const question = thread.binaryQuestion ?? thread.topic;
  switch (entry.intervention) {
    case 'BINARY_FRAMING':
      if (entry.status === 'CRUX_LOCK')
        return `${to}Two lock attempts have failed on ${quoted(question)}. The question is fixed in this stage: if it does not split you, say so in a CLARIFY and name the sharper question; otherwise commit, steelman and declare your falsifier.`;
      return `${to}Frame the core disagreement about the idea as one yes/no question ending in "?", then propose it as the crux (PROPOSE_CRUX).`;
    case 'COMMIT_REQUEST':
      if (entry.status === 'EVIDENCE')
        return `${to}The last messages repeat each other. Bring evidence not yet given, or move: UPDATE_POSITION or CONCEDE naming the message that moved you. If nothing more can be settled before the data exists, hold your side with UPDATE_POSITION and say when it will be known.`;
      return `${to}Time to commit on ${quoted(question)}: COMMIT_POSITION with YES, NO or UNCERTAIN, a confidence, a horizon and, unless UNCERTAIN, one falsifier.`;
    case 'STEELMAN_REQUEST':
      return `${to}Before this crux can lock, STEELMAN an agent on the other side and have that agent grade it.`;
    default:
      return `${to}${entry.target ? entry.content.replace(`${entry.target}: `, '') : entry.content}`;
  }
}

function entryLine(state: CruxState, thread: ThreadState, entry: TranscriptEntry): string {
  if (entry.author === null) {
    return `[${entry.id}] moderator${entry.intervention ? ` (${entry.intervention})` : ''}: ${moderatorLine(state, thread, entry)}`;
  }
  const meta = entry.meta && Object.keys(entry.meta).length > 0 ? ` ${JSON.stringify(entry.meta)}` : '';
  const reply = entry.replyTo ? ` → ${entry.replyTo}` : '';
  return `[${entry.id}] ${nameOf(state, entry.author)} (${entry.move})${reply}: ${entry.content}${meta}`;
}

/**
 * The thread's accepted messages and moderator lines, one request message each; for an agent's turn,
 * only those its attention takes in (`reader`, core/crux/attention.ts). Either way the transcript
 * only ever grows at its end, so every earlier turn's messages are an exact prefix of this one's and
 * are read from the prompt cache.
 */
export function transcriptMessages(state: CruxState, thread: ThreadState, reader?: string): LlmMessage[] {
  const head: LlmMessage = {
    role: 'user',
    content: `Thread ${thread.id}: ${thread.topic}\nTranscript so far (agents as "Name [id]"):`,
  };
  const entries =
    reader === undefined
      ? state.transcript.filter((m) => m.thread === thread.id && m.accepted)
      : attentionOf(state, thread.id, reader)
          .filter((a) => a.seen)
          .map((a) => a.entry);
  const lines = entries.map((m): LlmMessage => ({ role: 'user', content: entryLine(state, thread, m) }));
  return [head, ...lines];
}

/** The briefs of a crux debate's requests (see `LlmBrief`); `core/crux/simulator.ts` answers them. */
export type CruxBrief =
  | TurnBrief
  | AnalysisBrief
  | BaselineBrief
  | RelationBrief
  | RelationCheckBrief
  | LabelsBrief
  | CruxCheckBrief
  | ReviewBrief;
const CRUX_BRIEF_KINDS: readonly string[] = [
  'turn',
  'analysis',
  'baseline',
  'relation',
  'relation_check',
  'labels',
  'crux_check',
  'review',
];

/** Reads the crux brief of a request, if it has one; it travels beside the words, not in them. */
export function readBrief(request: { brief?: LlmBrief | undefined }): CruxBrief | null {
  const brief = request.brief;
  return brief?.protocol === 'crux' && CRUX_BRIEF_KINDS.includes(brief.kind)
    ? (brief as CruxBrief)
    : null;
}

/** What a turn's request needs beyond the state: the subject, the date, the others' grading rules. */
export interface TurnContext extends DebateContext {
  gradingRuleOf?: (agent: string) => string | null;
}

export function agentTurnRequest(
  state: CruxState,
  thread: ThreadState,
  turn: Turn,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: TurnContext,
): LlmRequest<AgentMove> {
  const brief = briefOf(state, thread, turn, context.today);
  const transcript = transcriptMessages(state, thread, turn.agent);
  const stance = thread.stances[turn.agent];
  const sideLine = stance
    ? `Your current side: ${stance.side}${stance.confidence === undefined ? '' : ` (confidence ${stance.confidence})`}.`
    : 'You have not committed to a side yet.';
  const claim = brief.topClaim
    ? ` Your top claim about the idea: "${brief.topClaim.statement}" (${brief.topClaim.side}).`
    : '';
  const block = brief.lastBlock
    ? `\nYour last move (${brief.lastBlock.move}) was refused: ${brief.lastBlock.reason} — ${brief.lastBlock.detail}. Fix it and answer again.`
    : '';
  const words =
    `Today is ${context.today}.\n${rosterLines(state, thread, turn.agent)}\n\n` +
    `You are ${brief.agent.name} [${brief.agent.id}]. Thread ${thread.id} is in ${brief.thread.stage} ` +
    `(${brief.thread.messagesInStage} of ${brief.thread.budget} messages used). ` +
    `Binary question: ${brief.thread.binaryQuestion ?? 'none yet'}. ${sideLine}${claim}${agendaInWords(brief.agenda)}\n` +
    `${unseenInWords(brief.unseen)}Allowed moves: ${brief.allowedMoves.join(', ')}.\n` +
    `What is needed from you now: ${askInWords(state, thread, turn.ask, context)}${block}`;
  const systemParts = debaterSystemParts(context.subject, persona.systemPrompt);
  return {
    system: systemParts.join('\n\n'),
    systemParts,
    messages: [...transcript, { role: 'user', content: words }],
    stablePrefix: transcript.length,
    brief,
    schema: agentMoveSchema,
    schemaName: 'crux_move',
    schemaDescription: 'Your move in the crux debate.',
    tier: persona.tier,
    maxTokens: 600,
    // What the schema cannot say: links only from the idea, and what moved a position change. It
    // needs the subject and the thread, which only this request knows.
    prepare: prepareMove(state, thread, turn.agent, context.subject),
  };
}

/** Room for the crystallizer's answer: a fixed part and a part per agent it writes about. */
export function analysisMaxTokens(agents: number): number {
  return 900 + 450 * agents;
}

export function analysisRequest(
  state: CruxState,
  thread: ThreadState,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<AnalysisOutput> {
  const transcript = transcriptMessages(state, thread);
  const brief: AnalysisBrief = {
    protocol: 'crux',
    kind: 'analysis',
    topic: state.topic,
    thread: { id: thread.id, topic: thread.topic, binaryQuestion: thread.binaryQuestion },
    commitments: Object.fromEntries(
      Object.entries(thread.commitments).map(([agent, c]) => [
        agent,
        {
          side: thread.stances[agent]?.side ?? c.side,
          confidence: thread.stances[agent]?.confidence ?? c.confidence,
          horizon: c.horizon,
          statement: c.statement,
        },
      ]),
    ),
    falsifiers: Object.fromEntries(
      Object.entries(thread.falsifiers).map(([a, f]) => [
        a,
        { metric: f.metric, threshold: f.threshold, deadline: f.deadline },
      ]),
    ),
  };
  const ids = state.agents.map((a) => a.id);
  const committed = ids.filter((id) => thread.commitments[id] !== undefined);
  const words =
    `Today is ${context.today}.\n${rosterLines(state, thread)}\n\n` +
    `The thread's question: ${thread.binaryQuestion ?? 'none was set'}.\n` +
    "Crystallize this thread: the binary question about the idea, each committed agent's final position (side, one-sentence statement, confidence, falsifier as declared), " +
    'at least two concrete resolution criteria (each with a number and a date), for each agent whether the crux resolving against them would flip their top claim above and why, ' +
    `any common ground, and your confidence in the crux. Key every per-agent field by the agent id (${ids.join(', ')}).`;
  return {
    system: crystallizerSystem(context.subject, persona.systemPrompt),
    messages: [...transcript, { role: 'user', content: words }],
    // A thread is crystallized once: a cached transcript would be a write nobody reads. The system
    // prompt is still cached, for the next thread's crystallization.
    stablePrefix: 0,
    brief,
    schema: crystallizerSchemaFor(ids, committed),
    schemaName: 'crux_analysis',
    schemaDescription: 'The crystallized crux of one thread.',
    tier: persona.tier,
    maxTokens: analysisMaxTokens(ids.length),
  };
}
