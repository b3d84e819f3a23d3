import { z } from 'zod';
import type { LlmBrief, LlmRequest } from '../../ports/llm';
import type { AnalysisOutput } from '../analysis';
import type { CruxReviewAnswer } from '../inputs';
import type { CruxState, ThreadState } from '../state';
import { CRUX_CHALLENGES, type CruxChallenge, type Side } from '../vocabulary';
import { crystallizerSchemaFor } from './answer';
import { analysisMaxTokens, transcriptMessages } from './brief';
import { type DebateContext, nameOf, rosterLines } from './subject';
import { crystallizerSystem, debaterSystemParts } from './system-prompt';

/**
 * Self-correction in a live debate (core/crux/crux-review.ts). Each version of a crystallized crux is
 * put to one agent (`checkerOf`), who may challenge it (CHALLENGE_CRUX: mis-stated, not binary, not
 * decision-relevant) or let it stand; a challenge goes to the crystallizer, who re-extracts the crux
 * from the same thread or says what needs clarifying first.
 */

export interface CruxCheckBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'crux_check';
  topic: string;
  thread: { id: string; question: string; validated: boolean; version: number };
  agent: { id: string; side: Side | null };
}

export interface ReviewBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'review';
  topic: string;
  thread: { id: string; topic: string; binaryQuestion: string | null; question: string };
  challenge: { agent: string; reason: CruxChallenge; content: string };
  commitments: Record<string, { side: string; confidence: number; horizon: string; statement: string }>;
  falsifiers: Record<string, { metric: string; threshold: string; deadline: string }>;
}

export const cruxCheckAnswerSchema = z.object({
  challenge: z.boolean().describe('true to challenge the crux, false to let it stand'),
  reason: z
    .enum(CRUX_CHALLENGES)
    .optional()
    .describe(
      'when challenging: MIS_STATED (it misrepresents a position or the question), NOT_BINARY (not a yes/no question), NOT_DECISION_RELEVANT (its answer would change nothing the researcher does)',
    ),
  content: z.string().min(1).describe('why, in one or two sentences'),
});
export type CruxCheckAnswer = z.infer<typeof cruxCheckAnswerSchema>;

export type ReviewAnswer = { reextracted: AnalysisOutput | null; needsClarification: string | null };

function positionLines(state: CruxState, thread: ThreadState): string {
  const crux = thread.crux;
  if (!crux) return '';
  return state.agents
    .filter((a) => crux.positions[a.id])
    .map((a) => {
      const p = crux.positions[a.id] as NonNullable<(typeof crux.positions)[string]>;
      return `- ${nameOf(state, a.id)}: ${p.side} (${p.confidence}) — ${p.statement}`;
    })
    .join('\n');
}

export function cruxCheckRequest(
  state: CruxState,
  thread: ThreadState,
  agent: string,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<CruxCheckAnswer> {
  const crux = thread.crux as NonNullable<ThreadState['crux']>;
  const version = crux.history?.length ?? 0;
  const side = crux.positions[agent]?.side ?? null;
  const brief: CruxCheckBrief = {
    protocol: 'crux',
    kind: 'crux_check',
    topic: state.topic,
    thread: { id: thread.id, question: crux.question, validated: crux.validated, version },
    agent: { id: agent, side },
  };
  const transcript = transcriptMessages(state, thread);
  const words =
    `Today is ${context.today}.\n${rosterLines(state, thread, agent)}\n\n` +
    `Thread ${thread.id} has crystallized. Its crux: "${crux.question}"\nThe positions as recorded:\n${positionLines(state, thread)}\n` +
    `Resolution criteria: ${crux.resolutionCriteria.join('; ')}\n\n` +
    `You are ${nameOf(state, agent)}. Does this crux stand as stated? Challenge it (CHALLENGE_CRUX) only if it mis-states ` +
    'your position or the question, is not a yes/no question, or its answer would change nothing the researcher does; otherwise let it stand.';
  const systemParts = debaterSystemParts(context.subject, persona.systemPrompt);
  return {
    system: systemParts.join('\n\n'),
    systemParts,
    messages: [...transcript, { role: 'user', content: words }],
    stablePrefix: transcript.length,
    // A one-off question at the crux's end: its prefix is not shared by any later call.
    cache: false,
    brief,
    schema: cruxCheckAnswerSchema,
    schemaName: 'crux_check',
    schemaDescription: 'Whether the crystallized crux stands, or your challenge of it.',
    tier: persona.tier,
    maxTokens: 300,
    check: (value) =>
      value.challenge && !value.reason
        ? { ok: false, problems: ['a challenge names its reason: MIS_STATED, NOT_BINARY or NOT_DECISION_RELEVANT'] }
        : { ok: true, value },
  };
}

export function reviewRequest(
  state: CruxState,
  thread: ThreadState,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<ReviewAnswer> {
  const crux = thread.crux as NonNullable<ThreadState['crux']>;
  const waiting = thread.awaitingReview as NonNullable<ThreadState['awaitingReview']>;
  const challengeText = state.transcript.find((m) => m.id === waiting.messageId)?.content ?? '';
  const brief: ReviewBrief = {
    protocol: 'crux',
    kind: 'review',
    topic: state.topic,
    thread: { id: thread.id, topic: thread.topic, binaryQuestion: thread.binaryQuestion, question: crux.question },
    challenge: { agent: waiting.agent, reason: waiting.challenge, content: challengeText },
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
      Object.entries(thread.falsifiers).map(([a, f]) => [a, { metric: f.metric, threshold: f.threshold, deadline: f.deadline }]),
    ),
  };
  const ids = state.agents.map((a) => a.id);
  const committed = ids.filter((id) => thread.commitments[id] !== undefined);
  const transcript = transcriptMessages(state, thread);
  const words =
    `Today is ${context.today}.\n${rosterLines(state, thread)}\n\n` +
    `You crystallized this thread's crux as "${crux.question}". ${nameOf(state, waiting.agent)} challenges it as ${waiting.challenge}: ${challengeText}\n\n` +
    'If the challenge is right and the thread holds a better crux, re-extract it (reextracted: the whole crux again, keyed by agent id; needsClarification: null). ' +
    'If the thread cannot give a sound crux until something is clarified, say what (needsClarification; reextracted: null).';
  return {
    system: crystallizerSystem(context.subject, persona.systemPrompt),
    messages: [...transcript, { role: 'user', content: words }],
    stablePrefix: 0,
    brief,
    schema: z.object({
      reextracted: crystallizerSchemaFor(ids, committed).nullable().describe('the crux re-extracted, or null'),
      needsClarification: z.string().nullable().describe('what must be clarified first, or null'),
    }) as unknown as z.ZodType<ReviewAnswer>,
    schemaName: 'crux_review',
    schemaDescription: 'Your review of a challenged crux.',
    tier: persona.tier,
    maxTokens: analysisMaxTokens(ids.length),
    check: (value) =>
      (value.reextracted === null) === (value.needsClarification === null || value.needsClarification.trim() === '')
        ? { ok: false, problems: ['give exactly one of reextracted and needsClarification'] }
        : { ok: true, value },
  };
}

/** The review's answer as the machine takes it. */
export function reviewInput(answer: ReviewAnswer): CruxReviewAnswer {
  return answer.reextracted
    ? { output: answer.reextracted }
    : { needsClarification: (answer.needsClarification ?? '').trim() };
}
