import { describe, expect, it } from 'vitest';
import {
  crossCandidates,
  type CrossPair,
  firstAnswer,
  secondAnswer,
  withRelations,
  EMPTY_CROSS_FILE,
} from './cross-debate';
import type { GraphDebate } from './global-graph';
import { replayScript } from './replay';
import { FAST_CONFIG, analysis, debate, quickCrux, relation, script } from './script-builder';

// The lexical first pass of the cross-debate analysis and the records of its two calls. Every crux
// is split ana YES / ben NO.
//   one (oldest): t1 TARIFF; t2 TARIFF reworded, a confirmed duplicate merged into t1.
//   two: t1 TARIFF in the region's words (5 of 7 keywords with TARIFF: 0.71); t2 ROOFS.
//   three: t1 SOLAR, sharing {rooftop, solar} with ROOFS (2 of 8: 0.25) and nothing with the rest.

const TARIFF = 'Will the local electricity tariff rise above 30 cents per kWh by 2028?';
const TARIFF_AGAIN = 'Will the electricity tariff here rise above 30 cents per kWh by 2028?';
const TARIFF_REGION = 'Will the electricity tariff in the region rise above 30 cents per kWh by 2028?';
const ROOFS = 'Will rooftop solar cover a third of demand by 2030?';
const SOLAR = 'Will rooftop solar installers hire apprentices in 2027?';

const split = (question: string) =>
  analysis({ ana: { side: 'YES', confidence: 0.8 }, ben: { side: 'NO', confidence: 0.7 } }, { question });

function replayed(id: string, createdAt: string, lines: object[]): GraphDebate {
  const { state } = replayScript(script(debate(['ana', 'ben'], FAST_CONFIG), ...(lines as never[])));
  return { id, topic: `Debate ${id}`, ideaSlug: id, createdAt, state };
}

const one = replayed('one', '2026-01-01', [
  ...quickCrux('t1', 'ana', 'ben', split(TARIFF)),
  ...quickCrux('t2', 'ana', 'ben', split(TARIFF_AGAIN)),
  relation('t1', 't2', 'DUPLICATE', 0.9, { check: { agrees: true, note: 'It holds.' } }),
]);
const two = replayed('two', '2026-02-01', [
  ...quickCrux('t1', 'ana', 'ben', split(TARIFF_REGION)),
  ...quickCrux('t2', 'ana', 'ben', split(ROOFS)),
]);
const three = replayed('three', '2026-03-01', quickCrux('t1', 'ana', 'ben', split(SOLAR)));

const pairs = (list: CrossPair[]) =>
  list.map((p) => [p.a.key, p.b.key, Math.round(p.similarity * 100) / 100, p.shared]);
const at = { provider: 'anthropic', checkedAt: '2026-05-01T00:00:00.000Z' };
const LONG = 'Both ask whether the same tariff passes 30 cents by 2028.';

describe('the lexical first pass across debates', () => {
  it('picks pairs of standing cruxes of different debates that share their words, most similar first', () => {
    // Given in any order: a is always the crux of the older debate. one/t2 is merged: never asked.
    const list = crossCandidates([three, two, one], []);
    expect(pairs(list)).toEqual([
      ['one/t1', 'two/t1', 0.71, 5],
      ['two/t2', 'three/t1', 0.25, 2],
    ]);
    expect(list[0]?.b).toEqual({
      key: 'two/t1',
      debateId: 'two',
      thread: 't1',
      topic: 'Debate two',
      question: TARIFF_REGION,
      positions: { ana: 'YES', ben: 'NO' },
    });
  });

  it('leaves out a pair answered about the same questions, and asks again once a crux reads otherwise', () => {
    const [tariffs] = crossCandidates([one, two, three], []);
    if (!tariffs) throw new Error('the tariff pair should be a candidate');
    const record = firstAnswer(tariffs, { relation: 'NONE', confidence: 0.4, sketch: '' }, at);
    expect(pairs(crossCandidates([one, two, three], [record]))).toEqual([['two/t2', 'three/t1', 0.25, 2]]);
    const asked = { ...record, questions: [TARIFF, 'Will the tariff rise?'] as [string, string] };
    expect(pairs(crossCandidates([one, two, three], [asked]))).toHaveLength(2);
  });
});

describe('the records of the two calls', () => {
  const [tariffs, roofs] = crossCandidates([one, two, three], []) as [CrossPair, CrossPair];

  it('holds the first answer to the thresholds of the analysis within a debate', () => {
    const status = (answer: Parameters<typeof firstAnswer>[1]) => {
      const r = firstAnswer(roofs, answer, at);
      return [r.status, r.from, r.to, r.note];
    };
    expect([
      status({ relation: 'NONE', confidence: 0.9, sketch: LONG }),
      status({ relation: 'SUPPORTS', deeper: 'B', confidence: 0.79, sketch: LONG }),
      status({ relation: 'SUPPORTS', deeper: 'B', confidence: 0.8, sketch: 'too short' }),
      status({ relation: 'SUPPORTS', deeper: 'B', confidence: 0.8, sketch: LONG }),
      status({ relation: 'ENTAILS', confidence: 0.95, sketch: LONG }),
    ]).toEqual([
      ['DISMISSED', 'two/t2', 'three/t1', 'no relation'],
      ['DISMISSED', 'three/t1', 'two/t2', 'confidence 0.79 is below 0.8'],
      ['DISMISSED', 'three/t1', 'two/t2', 'the sketch is shorter than 20 characters'],
      ['PROPOSED', 'three/t1', 'two/t2', null],
      ['PROPOSED', 'two/t2', 'three/t1', null],
    ]);
  });

  it('counts a relation only once the second call agrees, and keeps the latest answer of a pair', () => {
    const proposed = firstAnswer(tariffs, { relation: 'DUPLICATE', confidence: 0.9, sketch: LONG }, at);
    const confirmed = secondAnswer(proposed, { agrees: true, note: 'The same tariff, the same threshold.' });
    expect(confirmed).toEqual({
      a: 'one/t1',
      b: 'two/t1',
      relation: 'DUPLICATE',
      from: 'one/t1',
      to: 'two/t1',
      confidence: 0.9,
      sketch: LONG,
      status: 'CONFIRMED',
      note: 'The same tariff, the same threshold.',
      questions: [TARIFF, TARIFF_REGION],
      ...at,
    });
    expect(secondAnswer(proposed, { agrees: false, note: 'Local is not regional.' }).status).toBe('REJECTED');
    expect(() =>
      secondAnswer(firstAnswer(tariffs, { relation: 'NONE', confidence: 0, sketch: '' }, at), {
        agrees: true,
        note: 'x',
      }),
    ).toThrow('the relation of one/t1 and two/t1 waits for no second call');
    const file = withRelations(
      withRelations(EMPTY_CROSS_FILE, [proposed], { llmCalls: 1, costUsd: 0.01 }),
      [confirmed],
      {
        llmCalls: 2,
        costUsd: 0.02,
      },
    );
    expect([file.relations.map((r) => r.status), file.usage]).toEqual([['CONFIRMED'], { llmCalls: 3, costUsd: 0.03 }]);
  });
});
