import { describe, expect, it } from 'vitest';
import { type Llm, type LlmCallRecord, LlmError, type LlmRequest } from '../../ports/llm';
import { createSimulatedLlm } from '../../sim/simulated-llm';
import type { CrossCrux, CrossPair } from '../cross-debate';
import { checkCrossDebate } from './cross-debate-check';
import type { RelationBrief, RelationCheckBrief } from './relation-request';

// One pass of the cross-debate analysis against a scripted model (what each call is told and what it
// costs) and against the simulator, which answers the same briefs as within a debate.

const crux = (key: string, question: string): CrossCrux => {
  const [debateId = '', thread = ''] = key.split('/');
  return { key, debateId, thread, topic: `Debate ${debateId}`, question, positions: { ana: 'YES', ben: 'NO' } };
};
const TARIFF = crux('one/t1', 'Will the local electricity tariff rise above 30 cents per kWh by 2028?');
const REGION = crux('two/t1', 'Will the electricity tariff in the region rise above 30 cents per kWh by 2028?');
const ROOFS = crux('two/t2', 'Will rooftop solar cover a third of demand by 2030?');
const SOLAR = crux('three/t1', 'Will rooftop solar installers hire apprentices in 2027?');
const PAIRS: CrossPair[] = [
  { a: TARIFF, b: REGION, similarity: 0.71, shared: 5 },
  { a: ROOFS, b: SOLAR, similarity: 0.25, shared: 2 },
];
const LONG = 'Both ask whether the same thing happens by the same date.';

const callOf = (costUsd: number): LlmCallRecord => ({
  provider: 'scripted',
  model: 'm',
  tier: 'standard',
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs: 1,
  costUsd,
  ok: true,
});

/** A model that answers each call from the queue of its kind (an Error fails it), each call at $0.01. */
function scripted(answers: Record<string, (unknown | Error)[]>): Llm & { asked: LlmRequest<unknown>[] } {
  const asked: LlmRequest<unknown>[] = [];
  return {
    provider: 'scripted',
    asked,
    async call<T>(request: LlmRequest<T>) {
      asked.push(request as LlmRequest<unknown>);
      const next = answers[request.schemaName]?.shift();
      if (next === undefined) throw new Error(`nothing scripted for ${request.schemaName}`);
      if (next instanceof Error) throw new LlmError('server_error', next.message, [{ ...callOf(0.01), ok: false }]);
      return { value: request.schema.parse(next), calls: [callOf(0.01)] };
    },
  };
}

const setup = {
  persona: { systemPrompt: 'You crystallize debates.', tier: 'standard' as const },
  provider: 'scripted',
  now: () => Date.parse('2026-05-01T12:00:00Z'),
  maxPairs: 20,
  budgetUsd: 1,
  estimate: () => 0.001,
};

describe('a pass of the cross-debate analysis', () => {
  it('puts each pair to a first call and what passes the thresholds to a second, told the claim but not the confidence', async () => {
    const llm = scripted({
      crux_relation: [
        { relation: 'DUPLICATE', confidence: 0.93, sketch: LONG },
        { relation: 'SUPPORTS', deeper: 'A', confidence: 0.7, sketch: LONG },
      ],
      crux_relation_check: [{ agrees: true, note: 'The same tariff, the same threshold.' }],
    });
    const written: string[] = [];
    const outcome = await checkCrossDebate(llm, {
      ...setup,
      pairs: PAIRS,
      onRecord: (r, u) => written.push(`${r.b} ${u.llmCalls}`),
    });
    expect(outcome.records.map((r) => [r.a, r.b, r.relation, r.from, r.confidence, r.status, r.note])).toEqual([
      ['one/t1', 'two/t1', 'DUPLICATE', 'one/t1', 0.93, 'CONFIRMED', 'The same tariff, the same threshold.'],
      ['two/t2', 'three/t1', 'SUPPORTS', 'two/t2', 0.7, 'DISMISSED', 'confidence 0.7 is below 0.8'],
    ]);
    expect([outcome.usage, outcome.left, outcome.stoppedBy, written]).toEqual([
      { llmCalls: 3, costUsd: 0.03 },
      0,
      null,
      ['two/t1 2', 'three/t1 3'],
    ]);
    const [first, check] = llm.asked as [LlmRequest<unknown>, LlmRequest<unknown>];
    const brief = check.brief as RelationCheckBrief;
    expect([(first.brief as RelationBrief).a.thread, brief.kind, brief.proposal]).toEqual([
      'Debate one/t1',
      'relation_check',
      { relation: 'DUPLICATE', from: 'one/t1', sketch: LONG },
    ]);
    const told = check.messages[0]?.content as string;
    expect(told).toContain('Crux A (debate "Debate one", t1): Will the local electricity tariff');
    expect(told).toContain(`Its reasoning: ${LONG}`);
    expect(told).not.toContain('0.93');
  });

  it('gives a pair up after three failed calls: no relation, or a check that confirms nothing, every call paid for', async () => {
    const fail = new Error('overloaded');
    const llm = scripted({
      crux_relation: [fail, fail, fail, { relation: 'ENTAILS', deeper: 'B', confidence: 0.9, sketch: LONG }],
      crux_relation_check: [fail, fail, fail],
    });
    const outcome = await checkCrossDebate(llm, { ...setup, pairs: PAIRS });
    expect(outcome.records.map((r) => [r.relation, r.status, r.from, r.note])).toEqual([
      ['NONE', 'DISMISSED', 'one/t1', 'the call failed 3 times: overloaded'],
      ['ENTAILS', 'REJECTED', 'three/t1', 'the call failed 3 times: overloaded'],
    ]);
    expect(outcome.usage).toEqual({ llmCalls: 7, costUsd: 0.07 });
  });

  it('stops before a pair the budget cannot pay for at its worst, or past maxPairs', async () => {
    const answers = () => ({
      crux_relation: [{ relation: 'NONE', confidence: 0.2, sketch: '' }],
      crux_relation_check: [],
    });
    // Each call at most $0.5: a pair costs $1 at worst. The budget of $1 pays for the first; after the
    // $0.01 it really cost, the second's worst case would take the pass past it.
    const budget = await checkCrossDebate(scripted(answers()), { ...setup, pairs: PAIRS, estimate: () => 0.5 });
    const capped = await checkCrossDebate(scripted(answers()), { ...setup, pairs: PAIRS, maxPairs: 1 });
    expect([budget, capped].map((o) => [o.records.length, o.left, o.stoppedBy])).toEqual([
      [1, 1, 'budget'],
      [1, 1, 'maxPairs'],
    ]);
  });

  it('is answered offline by the simulator as a debate’s relations are: a wording duplicate confirmed', async () => {
    const outcome = await checkCrossDebate(createSimulatedLlm(1), { ...setup, provider: 'simulated', pairs: PAIRS });
    expect(outcome.records.map((r) => [r.relation, r.status, r.confidence])[0]).toEqual([
      'DUPLICATE',
      'CONFIRMED',
      0.9,
    ]);
    expect(outcome.usage.llmCalls).toBeGreaterThanOrEqual(3);
  });
});
