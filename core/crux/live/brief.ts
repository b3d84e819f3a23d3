import type { LlmMessage, LlmRequest } from '../../ports/llm';
import type { AnalysisOutput } from '../analysis';
import type { CruxState, ThreadState, TranscriptEntry } from '../state';
import { MOVES_BY_STAGE, type Move, type Stage } from '../vocabulary';
import { type AgentMove, agentMoveSchema, crystallizerAnswerSchema } from './answer';
import { PROTOCOL_RULES } from './rules';
import type { Ask, Turn } from './scheduler';

/**
 * What an agent is told on its turn, as data. The model gets it as words in the last message; the
 * data itself rides along as the request's `brief`, so the offline simulator can act on it without
 * parsing prose.
 */
export interface TurnBrief {
  kind: 'crux_turn';
  topic: string;
  thread: { id: string; topic: string; stage: Stage; binaryQuestion: string | null; messagesInStage: number; budget: number };
  agent: { id: string; name: string; side: 'YES' | 'NO' | 'UNCERTAIN' | null; committed: boolean; hasFalsifier: boolean };
  topClaim: { statement: string; side: 'YES' | 'NO' | 'UNCERTAIN'; confidence: number } | null;
  defaultHorizon: string | null;
  allowedMoves: readonly Move[];
  ask: Ask;
  attempt: number;
  lastBlock: { reason: string; detail: string; move: Move | null } | null;
  /** Other agents' current sides in this thread (for steelmans and challenges). */
  others: { id: string; name: string; side: 'YES' | 'NO' | 'UNCERTAIN' | null }[];
  /** Ids of the last few accepted messages, so a reply can name one. */
  recent: { id: string; author: string | null; move: Move | null }[];
}

export interface AnalysisBrief {
  kind: 'crux_analysis';
  topic: string;
  thread: { id: string; topic: string; binaryQuestion: string | null };
  commitments: Record<string, { side: string; confidence: number; horizon: string; statement: string }>;
  falsifiers: Record<string, { metric: string; threshold: string; deadline: string }>;
}

export function briefOf(state: CruxState, thread: ThreadState, turn: Turn): TurnBrief {
  const profile = state.agents.find((a) => a.id === turn.agent);
  const stage = thread.status as Stage;
  return {
    kind: 'crux_turn',
    topic: state.topic,
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
    recent: state.transcript
      .filter((m) => m.thread === thread.id && m.accepted)
      .slice(-6)
      .map((m) => ({ id: m.id, author: m.author, move: m.move })),
  };
}

function askInWords(ask: Ask): string {
  switch (ask.kind) {
    case 'DISCUSS':
      return 'Move the discovery forward: a CLAIM, a CHALLENGE of a specific message, a CLARIFY, or a REFRAME.';
    case 'PROPOSE_CRUX':
      return 'Propose the crux: PROPOSE_CRUX with meta.question, one yes/no question ending in "?" that would change decisions.';
    case 'COMMIT_POSITION':
      return 'Commit: COMMIT_POSITION with meta.side, meta.confidence, meta.horizon and, unless UNCERTAIN, meta.falsifier.';
    case 'DECLARE_FALSIFIER':
      return 'Say what would prove you wrong: DECLARE_FALSIFIER with meta.falsifier {metric, threshold (with a number), deadline}.';
    case 'STEELMAN':
      return `Steelman ${ask.target}: STEELMAN with meta.steelmanTarget "${ask.target}", restating their view at its strongest.`;
    case 'GRADE_STEELMAN':
      return `Grade ${ask.from}'s steelman of your view: GRADE_STEELMAN with meta.steelmanGrade.`;
    case 'CLARIFY':
      return 'Clarify what is still unclear in the crux (CLARIFY).';
    case 'PROVIDE_EVIDENCE':
      return `Bring evidence (PROVIDE_EVIDENCE)${ask.targetFalsifierOf ? `, ideally against ${ask.targetFalsifierOf}'s falsifier (meta.targetFalsifierOf)` : ''}, or UPDATE_POSITION / CONCEDE if the evidence has moved you.`;
    case 'CHALLENGE_EVIDENCE':
      return `Challenge ${ask.author}'s evidence in ${ask.replyTo} (CHALLENGE_EVIDENCE with replyTo "${ask.replyTo}"), or concede it.`;
  }
}

function entryLine(entry: TranscriptEntry, names: ReadonlyMap<string, string>): string {
  if (entry.author === null) return `[${entry.id}] moderator${entry.intervention ? ` (${entry.intervention})` : ''}: ${entry.content}`;
  const meta = entry.meta && Object.keys(entry.meta).length > 0 ? ` ${JSON.stringify(entry.meta)}` : '';
  const reply = entry.replyTo ? ` → ${entry.replyTo}` : '';
  return `[${entry.id}] ${names.get(entry.author) ?? entry.author} (${entry.move})${reply}: ${entry.content}${meta}`;
}

/**
 * The thread's accepted messages and moderator lines, one request message each: the transcript only
 * ever grows, so every earlier turn's messages are an exact prefix of this one's and are read from
 * the prompt cache.
 */
export function transcriptMessages(state: CruxState, thread: ThreadState): LlmMessage[] {
  const names = new Map(state.agents.map((a) => [a.id, a.name]));
  const head: LlmMessage = {
    role: 'user',
    content: `Debate topic: ${state.topic}\nThread ${thread.id}: ${thread.topic}\nTranscript so far:`,
  };
  const lines = state.transcript
    .filter((m) => m.thread === thread.id && m.accepted)
    .map((m): LlmMessage => ({ role: 'user', content: entryLine(m, names) }));
  return [head, ...lines];
}

/** Reads the brief of a request (the simulator's way in); it travels beside the words, not in them. */
export function readBrief(request: { brief?: unknown }): TurnBrief | AnalysisBrief | null {
  const brief = request.brief as { kind?: unknown } | undefined;
  if (brief && (brief.kind === 'crux_turn' || brief.kind === 'crux_analysis')) return brief as TurnBrief | AnalysisBrief;
  return null;
}

export function agentTurnRequest(
  state: CruxState,
  thread: ThreadState,
  turn: Turn,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
): LlmRequest<AgentMove> {
  const brief = briefOf(state, thread, turn);
  const transcript = transcriptMessages(state, thread);
  const sideLine = brief.agent.side ? `Your current side: ${brief.agent.side}.` : 'You have not committed to a side yet.';
  const claim = brief.topClaim ? ` Your top claim: "${brief.topClaim.statement}" (${brief.topClaim.side}).` : '';
  const block = brief.lastBlock
    ? `\nYour last move (${brief.lastBlock.move}) was refused: ${brief.lastBlock.reason} — ${brief.lastBlock.detail}. Fix it and answer again.`
    : '';
  const words =
    `You are ${brief.agent.name} (${brief.agent.id}). Thread ${thread.id} is in ${brief.thread.stage} ` +
    `(${brief.thread.messagesInStage} of ${brief.thread.budget} messages used). ` +
    `Binary question: ${brief.thread.binaryQuestion ?? 'none yet'}. ${sideLine}${claim}\n` +
    `Allowed moves: ${brief.allowedMoves.join(', ')}.\n` +
    `What is needed from you now: ${askInWords(turn.ask)}${block}`;
  return {
    system: `${persona.systemPrompt}\n\n${PROTOCOL_RULES}`,
    messages: [...transcript, { role: 'user', content: words }],
    stablePrefix: transcript.length,
    brief,
    schema: agentMoveSchema,
    schemaName: 'crux_move',
    schemaDescription: 'Your move in the crux debate.',
    tier: persona.tier,
    maxTokens: 600,
  };
}

export function analysisRequest(state: CruxState, thread: ThreadState, persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' }): LlmRequest<AnalysisOutput> {
  const transcript = transcriptMessages(state, thread);
  const brief: AnalysisBrief = {
    kind: 'crux_analysis',
    topic: state.topic,
    thread: { id: thread.id, topic: thread.topic, binaryQuestion: thread.binaryQuestion },
    commitments: Object.fromEntries(
      Object.entries(thread.commitments).map(([agent, c]) => [
        agent,
        { side: thread.stances[agent]?.side ?? c.side, confidence: thread.stances[agent]?.confidence ?? c.confidence, horizon: c.horizon, statement: c.statement },
      ]),
    ),
    falsifiers: Object.fromEntries(Object.entries(thread.falsifiers).map(([a, f]) => [a, { metric: f.metric, threshold: f.threshold, deadline: f.deadline }])),
  };
  const words =
    'Crystallize this thread: the binary question, each agent\'s final position (side, one-sentence statement, confidence, falsifier), ' +
    'at least two concrete resolution criteria (no vague words), for each agent whether a NO/YES on the question would flip their decision and why, ' +
    'any common ground, and your confidence in the crux.';
  return {
    system: `${persona.systemPrompt}\n\n${PROTOCOL_RULES}`,
    messages: [...transcript, { role: 'user', content: words }],
    stablePrefix: transcript.length,
    brief,
    schema: crystallizerAnswerSchema,
    schemaName: 'crux_analysis',
    schemaDescription: 'The crystallized crux of one thread.',
    tier: persona.tier,
    maxTokens: 1500,
  };
}
