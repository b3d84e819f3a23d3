import type { Llm, LlmCallRecord, LlmRequest, ModelTier } from '../../ports/llm';
import { LlmError } from '../../ports/llm';
import {
  type CrossCrux,
  type CrossPair,
  type CrossRelation,
  type CrossRelationsFile,
  firstAnswer,
  secondAnswer,
} from '../cross-debate';
import { RELATION_MIN_CONFIDENCE, RELATION_MIN_SKETCH } from '../relations';
import {
  type RelationAnswer,
  type RelationBrief,
  type RelationCheckAnswer,
  type RelationCheckBrief,
  type RelationCrux,
  relationAnswerSchema,
  relationCheckAnswerSchema,
} from './relation-request';
import { crystallizerSystem } from './system-prompt';

/**
 * The two calls of the cross-debate analysis (../cross-debate.ts), asked with the crystallizer's
 * persona like the analysis within a debate, and with the same briefs (`relation`,
 * `relation_check`), so the simulator answers them offline as it answers a debate's. The second call
 * is told the claim and its sketch, never the first call's confidence.
 */

/** What the pass is told it is about: no single debate, the workspace's cruxes. */
const SUBJECT = { kind: 'topic', text: 'The cruxes of every debate of this workspace, taken together.' } as const;
/** Tries per call before the pair is given up (as a live debate gives up a relation). */
export const CROSS_ATTEMPTS = 3;

export interface CrossPersona {
  systemPrompt: string;
  tier: ModelTier;
}

/**
 * A crux as the briefs name it: by its debate's topic and thread rather than the debate's id, so the
 * simulator (which draws from the names it is given) answers a workspace the same on every run.
 */
const asRelationCrux = (c: CrossCrux): RelationCrux => ({
  thread: `${c.topic}/${c.thread}`,
  question: c.question,
  positions: c.positions,
});

function cruxLines(pair: CrossPair): string {
  const one = (label: string, c: CrossCrux) => {
    const sides =
      Object.entries(c.positions)
        .map(([agent, side]) => `${agent} ${side}`)
        .join(', ') || 'no positions';
    return `Crux ${label} (debate "${c.topic}", ${c.thread}): ${c.question}\n  Positions: ${sides}`;
  };
  return `${one('A', pair.a)}\n${one('B', pair.b)}`;
}

export function crossRelationRequest(
  pair: CrossPair,
  persona: CrossPersona,
  today: string,
): LlmRequest<RelationAnswer> {
  const brief: RelationBrief = {
    protocol: 'crux',
    kind: 'relation',
    topic: SUBJECT.text,
    a: asRelationCrux(pair.a),
    b: asRelationCrux(pair.b),
  };
  const words =
    `Today is ${today}. Two different debates of this workspace crystallized these cruxes (agents with the same name are the same persona).\n` +
    `${cruxLines(pair)}\n\n` +
    'Say what A and B are to each other. Call them DUPLICATE only when an answer to one is an answer to the other. ' +
    `Only a relation you are at least ${RELATION_MIN_CONFIDENCE} sure of, argued in a sketch of at least ${RELATION_MIN_SKETCH} characters, ` +
    'is put to a second reader; when in doubt answer NONE.';
  return {
    system: crystallizerSystem(SUBJECT, persona.systemPrompt),
    messages: [{ role: 'user', content: words }],
    stablePrefix: 0,
    // One call per pair: no later call shares its prefix.
    cache: false,
    brief,
    schema: relationAnswerSchema,
    schemaName: 'crux_relation',
    schemaDescription: 'What a crux of one debate is to a crux of another.',
    tier: persona.tier,
    maxTokens: 500,
  };
}

export function crossRelationCheckRequest(
  pair: CrossPair,
  proposed: CrossRelation,
  persona: CrossPersona,
  today: string,
): LlmRequest<RelationCheckAnswer> {
  const deeper = proposed.from === pair.a.key ? 'A' : 'B';
  const brief: RelationCheckBrief = {
    protocol: 'crux',
    kind: 'relation_check',
    topic: SUBJECT.text,
    a: asRelationCrux(pair.a),
    b: asRelationCrux(pair.b),
    proposal: { relation: proposed.relation, from: proposed.from, sketch: proposed.sketch },
  };
  const claim =
    proposed.relation === 'DUPLICATE'
      ? 'A and B are the same question: an answer to one is an answer to the other.'
      : proposed.relation === 'CONTRADICTS'
        ? 'A YES to one of A and B is a NO to the other.'
        : `${proposed.relation === 'ENTAILS' ? 'Answering' : 'The answer to'} ${deeper} ${proposed.relation === 'ENTAILS' ? 'settles' : 'makes one answer more likely of'} ${deeper === 'A' ? 'B' : 'A'}.`;
  const words =
    `Today is ${today}. Another reader claims a relation between cruxes of two different debates of this workspace; you check it.\n` +
    `${cruxLines(pair)}\n\nThe claim: ${claim}\nIts reasoning: ${proposed.sketch}\n\n` +
    'Agree only if the claim holds as stated and the reasoning supports it; otherwise say what fails.';
  return {
    system: crystallizerSystem(SUBJECT, persona.systemPrompt),
    messages: [{ role: 'user', content: words }],
    stablePrefix: 0,
    cache: false,
    brief,
    schema: relationCheckAnswerSchema,
    schemaName: 'crux_relation_check',
    schemaDescription: 'Whether a claimed relation between cruxes of two debates holds.',
    tier: persona.tier,
    maxTokens: 300,
  };
}

export interface CrossCheckSetup {
  pairs: readonly CrossPair[];
  persona: CrossPersona;
  /** The provider's name, written into each record. */
  provider: string;
  now: () => number;
  /** At most this many pairs in one pass (most similar first). */
  maxPairs: number;
  /** A pass stops before a pair whose two calls, each at its worst, would take it past this. */
  budgetUsd: number;
  /** The worst-case cost of one call (USD), before it is made. */
  estimate: (request: LlmRequest<unknown>) => number;
  /** Each pair's record, as soon as it is answered (so an interrupted pass keeps what it paid for). */
  onRecord?: (record: CrossRelation, usage: CrossRelationsFile['usage']) => void;
}

export interface CrossCheckOutcome {
  records: CrossRelation[];
  usage: CrossRelationsFile['usage'];
  /** Pairs not asked in this pass (beyond `maxPairs`, or the budget). */
  left: number;
  stoppedBy: 'budget' | 'maxPairs' | null;
}

async function ask<T>(llm: Llm, request: LlmRequest<T>, usage: CrossRelationsFile['usage']): Promise<T | string> {
  const meter = (calls: readonly LlmCallRecord[]) => {
    for (const c of calls) {
      usage.llmCalls += 1;
      usage.costUsd += c.costUsd;
    }
  };
  let last = '';
  for (let attempt = 1; attempt <= CROSS_ATTEMPTS; attempt++) {
    try {
      const { value, calls } = await llm.call(request);
      meter(calls);
      return value;
    } catch (error) {
      // A failure of the model or the network is the pair's; anything else is a bug.
      if (!(error instanceof LlmError)) throw error;
      meter(error.calls);
      last = error.message.split('\n')[0] ?? error.message;
    }
  }
  return `the call failed ${CROSS_ATTEMPTS} times: ${last}`;
}

/**
 * One pass of the cross-debate analysis: each pair (in the order given) put to the first call, and
 * what passes the thresholds to the second. A first call that keeps failing is no relation, a
 * second that does confirms nothing, as within a debate.
 */
export async function checkCrossDebate(llm: Llm, setup: CrossCheckSetup): Promise<CrossCheckOutcome> {
  const usage = { llmCalls: 0, costUsd: 0 };
  const records: CrossRelation[] = [];
  const today = new Date(setup.now()).toISOString().slice(0, 10);
  let stoppedBy: CrossCheckOutcome['stoppedBy'] = null;
  let asked = 0;
  for (const pair of setup.pairs) {
    if (asked >= setup.maxPairs) {
      stoppedBy = 'maxPairs';
      break;
    }
    const first = crossRelationRequest(pair, setup.persona, today);
    // The second call reads the first's sketch, which is not written yet: priced here with a sketch
    // as long as the first call may write (one word a token), so the pair's worst case is known.
    const worstCheck = crossRelationCheckRequest(
      pair,
      {
        ...firstAnswer(
          pair,
          { relation: 'DUPLICATE', confidence: 1, sketch: 'word '.repeat(first.maxTokens) },
          { provider: setup.provider, checkedAt: '' },
        ),
      },
      setup.persona,
      today,
    );
    const worst = setup.estimate(first as LlmRequest<unknown>) + setup.estimate(worstCheck as LlmRequest<unknown>);
    if (usage.costUsd + worst > setup.budgetUsd) {
      stoppedBy = 'budget';
      break;
    }
    asked += 1;
    const checkedAt = new Date(setup.now()).toISOString();
    const answer = await ask(llm, first, usage);
    let record =
      typeof answer === 'string'
        ? firstAnswer(
            pair,
            { relation: 'NONE', confidence: 0, sketch: '', note: answer },
            { provider: setup.provider, checkedAt },
          )
        : firstAnswer(pair, answer, { provider: setup.provider, checkedAt });
    if (record.status === 'PROPOSED') {
      const check = await ask(llm, crossRelationCheckRequest(pair, record, setup.persona, today), usage);
      record = secondAnswer(record, typeof check === 'string' ? { agrees: false, note: check } : check);
    }
    records.push(record);
    setup.onRecord?.(record, { ...usage });
  }
  return { records, usage, left: setup.pairs.length - asked, stoppedBy };
}
