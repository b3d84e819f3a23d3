import { z } from 'zod';
import type { LlmBrief, LlmRequest } from '../../ports/llm';
import type { CruxRelation } from '../record-schemas';
import { RELATION_MIN_CONFIDENCE, RELATION_MIN_SKETCH } from '../relations';
import type { CruxState } from '../state';
import { CRUX_RELATIONS, type Side } from '../vocabulary';
import type { DebateContext } from './subject';
import { crystallizerSystem } from './system-prompt';

/**
 * The two calls of the cross-thread analysis (core/crux/relations.ts) in a live debate, both made
 * with the crystallizer's persona: the first says what one crux is to another, the second is asked,
 * without the first call's confidence, whether it agrees with the relation and its sketch.
 */

/** One crux as both calls read it: its question and where each agent stands on it. */
export interface RelationCrux {
  thread: string;
  question: string;
  positions: Record<string, Side>;
}

export interface RelationBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'relation';
  topic: string;
  a: RelationCrux;
  b: RelationCrux;
}

export interface RelationCheckBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'relation_check';
  topic: string;
  a: RelationCrux;
  b: RelationCrux;
  proposal: { relation: CruxRelation['relation']; from: string; sketch: string };
}

export const relationAnswerSchema = z.object({
  relation: z
    .enum(CRUX_RELATIONS)
    .describe(
      'DUPLICATE: the same question in other words; ENTAILS: answering the deeper one settles the other; SUPPORTS: the deeper one makes one answer of the other more likely; CONTRADICTS: a YES to one is a NO to the other; NONE: none of these',
    ),
  deeper: z
    .enum(['A', 'B'])
    .optional()
    .describe('ENTAILS and SUPPORTS: the crux the other rests on, A or B'),
  confidence: z.number().min(0).max(1).describe('how sure you are of the relation, 0 to 1'),
  sketch: z
    .string()
    .describe('the reasoning in one or two steps, naming both questions, under 60 words; empty for NONE'),
});
export type RelationAnswer = z.infer<typeof relationAnswerSchema>;

export const relationCheckAnswerSchema = z.object({
  agrees: z.boolean().describe('whether the relation holds as stated'),
  note: z.string().min(1).describe('why, in one sentence'),
});
export type RelationCheckAnswer = z.infer<typeof relationCheckAnswerSchema>;

function cruxOf(state: CruxState, thread: string): RelationCrux {
  const t = state.threads.find((x) => x.id === thread);
  const crux = t?.crux;
  const positions: Record<string, Side> = {};
  for (const agent of state.agents) {
    const p = crux?.positions[agent.id];
    if (p) positions[agent.id] = p.side;
  }
  return { thread, question: crux?.question ?? t?.binaryQuestion ?? t?.topic ?? thread, positions };
}

function cruxLines(state: CruxState, a: RelationCrux, b: RelationCrux): string {
  const sides = (c: RelationCrux) =>
    Object.entries(c.positions)
      .map(([agent, side]) => `${state.agents.find((x) => x.id === agent)?.name ?? agent} ${side}`)
      .join(', ') || 'no positions';
  return `Crux A (${a.thread}): ${a.question}\n  Positions: ${sides(a)}\nCrux B (${b.thread}): ${b.question}\n  Positions: ${sides(b)}`;
}

export function relationRequest(
  state: CruxState,
  pair: { a: string; b: string },
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<RelationAnswer> {
  const a = cruxOf(state, pair.a);
  const b = cruxOf(state, pair.b);
  const brief: RelationBrief = { protocol: 'crux', kind: 'relation', topic: state.topic, a, b };
  const words =
    `Today is ${context.today}. Two threads of this debate crystallized these cruxes.\n${cruxLines(state, a, b)}\n\n` +
    'Say what A and B are to each other. Call them DUPLICATE only when an answer to one is an answer to the other. ' +
    `Only a relation you are at least ${RELATION_MIN_CONFIDENCE} sure of, argued in a sketch of at least ${RELATION_MIN_SKETCH} characters, ` +
    'is put to a second reader; when in doubt answer NONE.';
  return {
    system: crystallizerSystem(context.subject, persona.systemPrompt),
    messages: [{ role: 'user', content: words }],
    stablePrefix: 0,
    // Asked once, after the threads are done: no later call shares its prefix.
    cache: false,
    brief,
    schema: relationAnswerSchema,
    schemaName: 'crux_relation',
    schemaDescription: 'What one crux of the debate is to another.',
    tier: persona.tier,
    maxTokens: 500,
  };
}

export function relationCheckRequest(
  state: CruxState,
  relation: CruxRelation,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<RelationCheckAnswer> {
  const a = cruxOf(state, relation.a);
  const b = cruxOf(state, relation.b);
  const brief: RelationCheckBrief = {
    protocol: 'crux',
    kind: 'relation_check',
    topic: state.topic,
    a,
    b,
    proposal: { relation: relation.relation, from: relation.from, sketch: relation.sketch },
  };
  const deeper = relation.from === relation.a ? 'A' : 'B';
  const claim =
    relation.relation === 'DUPLICATE'
      ? 'A and B are the same question: an answer to one is an answer to the other.'
      : relation.relation === 'CONTRADICTS'
        ? 'A YES to one of A and B is a NO to the other.'
        : `${relation.relation === 'ENTAILS' ? 'Answering' : 'The answer to'} ${deeper} ${relation.relation === 'ENTAILS' ? 'settles' : 'makes one answer more likely of'} ${deeper === 'A' ? 'B' : 'A'}.`;
  const words =
    `Today is ${context.today}. Another reader of this debate claims a relation between two of its cruxes; you check it.\n` +
    `${cruxLines(state, a, b)}\n\nThe claim: ${claim}\nIts reasoning: ${relation.sketch}\n\n` +
    'Agree only if the claim holds as stated and the reasoning supports it; otherwise say what fails.';
  return {
    system: crystallizerSystem(context.subject, persona.systemPrompt),
    messages: [{ role: 'user', content: words }],
    stablePrefix: 0,
    // Asked once, after the threads are done: no later call shares its prefix.
    cache: false,
    brief,
    schema: relationCheckAnswerSchema,
    schemaName: 'crux_relation_check',
    schemaDescription: 'Whether a claimed relation between two cruxes holds.',
    tier: persona.tier,
    maxTokens: 300,
  };
}
