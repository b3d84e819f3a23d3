import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../ports/llm';
import { replayScript } from '../replay';
import { FAST_CONFIG, analysis, debate, quickCrux, script } from '../script-builder';
import { simulateRelation, simulateRelationCheck } from '../simulator';
import type { CruxAsk, CruxRunState } from './protocol';
import { cruxProtocol } from './protocol';
import type { RelationBrief, RelationCheckBrief } from './relation-request';

// The cross-thread analysis in a live debate: once two threads have crystallized, the protocol asks
// the crystallizer what one crux is to the other, puts a sure enough answer to a second call, and
// applies both answers as inputs; the simulator plays both calls. Here t2 asks t1's question again
// in other words, so the pair is a duplicate, confirmed, and t2 is merged.

const prompt = { systemPrompt: 'You crystallize debates.', tier: 'standard' as const, interests: [] };
const protocol = cruxProtocol({
  subject: undefined,
  topic: 'Test topic',
  agents: [{ id: 'ana' }, { id: 'ben' }],
  limits: { maxMessages: 200, stagnationTurns: 12 },
  personas: new Map([
    ['ana', prompt],
    ['ben', prompt],
  ]),
  crystallizer: prompt,
  now: () => Date.UTC(2026, 0, 1),
});
const view = { degraded: new Set<string>(), pending: [] };

function run(q1: string, q2: string): CruxRunState {
  const split = (question: string) => analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } }, { question });
  const { state } = replayScript(
    script(debate(['ana', 'ben'], FAST_CONFIG), quickCrux('t1', 'ana', 'ben', split(q1)), quickCrux('t2', 'ana', 'ben', split(q2))),
  );
  return { crux: state, spawnOffered: new Set() };
}

/** Asks and answers until the protocol is done, the simulator answering the relation calls. */
function settle(state: CruxRunState): CruxAsk[] {
  const asked: CruxAsk[] = [];
  for (let round = 0; round < 5 && !protocol.done(state); round++) {
    for (const ask of protocol.asks(state, view).asks) {
      asked.push(ask);
      const request = protocol.request(state, ask) as LlmRequest<unknown>;
      // Each crux is also put to an agent (self-correction); here every one lets its crux stand.
      const value =
        ask.kind === 'crux_check'
          ? { challenge: false, content: 'It stands.' }
          : ask.kind === 'relation'
            ? simulateRelation(1, request.brief as RelationBrief)
            : simulateRelationCheck(1, request.brief as RelationCheckBrief);
      protocol.step(state, protocol.answer(state, ask, value));
    }
  }
  return asked.filter((ask) => ask.kind !== 'crux_check');
}

describe('the cross-thread analysis of a live debate', () => {
  it('asks about the pair, checks the duplicate with a second call and merges the later crux', () => {
    const state = run(
      'Does output per employee rise within 18 months of the policy?',
      'Will output per employee rise within 18 months of the policy?',
    );
    const asked = settle(state);
    expect({
      asked,
      done: protocol.done(state),
      crystallized: state.crux.crystallized,
      t2: [state.crux.threads[1]?.status, state.crux.threads[1]?.mergedInto],
      relation: state.crux.relations.map((r) => [r.relation, r.status, r.confidence]),
    }).toEqual({
      asked: [
        { kind: 'relation', a: 't1', b: 't2' },
        { kind: 'relation_check', a: 't1', b: 't2' },
      ],
      done: true,
      crystallized: ['t1'],
      t2: ['MERGED', 't1'],
      relation: [['DUPLICATE', 'CONFIRMED', 0.9]],
    });
  });

  it('asks no second call about cruxes that share nothing, and is done after the first', () => {
    const state = run('Does output per employee rise within 18 months?', 'Do regulators approve the tariff?');
    expect(settle(state)).toEqual([{ kind: 'relation', a: 't1', b: 't2' }]);
    expect(state.crux.relations.map((r) => [r.relation, r.status])).toEqual([['NONE', 'DISMISSED']]);
  });

  it('names the pair in its round and failure records, so a resumed debate finishes the same calls', () => {
    const state = run('Does output per employee rise within 18 months?', 'Do regulators approve the tariff?');
    const ask: CruxAsk = { kind: 'relation', a: 't1', b: 't2' };
    const info = protocol.describe(ask);
    expect(info.planned).toEqual({ kind: 'relation', thread: 't1+t2', agent: null });
    expect(protocol.failureOf?.('crystallizer', info.failedAt)?.planned).toEqual(info.planned);
    expect(protocol.asks(state, { ...view, pending: [info.planned] })).toEqual({ asks: [ask], resumed: true });
    const failed = protocol.failed(state, ask, { reason: 'x', message: 'timeout', attempts: 3, refused: false, fromModel: true });
    expect(failed).toEqual([
      { kind: 'crux_relation', a: 't1', b: 't2', relation: 'NONE', confidence: 0, sketch: '', note: 'the call failed 3 times: timeout' },
    ]);
    expect(protocol.settles?.(failed[0] as never)).toEqual(info.planned);
  });
});
