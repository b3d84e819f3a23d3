import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflictSchema } from '../evaluation/document';
import { challengeViewSchema } from './evaluations-channels';
import { strictCopy } from './strict-copy';

describe('strictCopy', () => {
  const inner = z.object({ n: z.number().int().min(0) });
  const loose = z.object({
    list: z.array(inner).min(1),
    maybe: inner.nullable(),
    later: inner.optional(),
    name: z.string().trim(),
    byKey: z.record(z.string(), inner),
    either: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), n: z.number() }),
      z.object({ kind: z.literal('b'), inner }),
    ]),
  });
  const strict = strictCopy(loose);
  const good = {
    list: [{ n: 1 }],
    maybe: { n: 2 },
    later: { n: 3 },
    name: ' x ',
    byKey: { k: { n: 4 } },
    either: { kind: 'b', inner: { n: 5 } },
  };

  it('rejects an unknown key at any depth, where the original strips it', () => {
    const extra = [
      { ...good, extra: 1 },
      { ...good, list: [{ n: 1, extra: 1 }] },
      { ...good, maybe: { n: 2, extra: 1 } },
      { ...good, later: { n: 3, extra: 1 } },
      { ...good, byKey: { k: { n: 4, extra: 1 } } },
      { ...good, either: { kind: 'b', inner: { n: 5 }, extra: 1 } },
      { ...good, either: { kind: 'b', inner: { n: 5, extra: 1 } } },
    ];
    for (const value of extra) {
      expect(loose.parse(value)).toEqual({ ...good, name: 'x' });
      const issue = strict.safeParse(value).error?.issues[0];
      expect(issue).toMatchObject({ code: 'unrecognized_keys', keys: ['extra'] });
    }
  });

  it('keeps every check and transform of the original', () => {
    expect(strict.parse(good)).toEqual(loose.parse(good));
    for (const bad of [
      { ...good, list: [] },
      { ...good, maybe: { n: -1 } },
      { ...good, later: { n: 1.5 } },
      { ...good, byKey: { k: { n: -1 } } },
      { ...good, either: { kind: 'c', n: 1 } },
    ]) {
      expect(strict.safeParse(bad).success).toBe(false);
      expect(loose.safeParse(bad).success).toBe(false);
    }
  });

  it('gives the contract a strict view of a protocol shape', () => {
    const conflict = {
      id: 'c1',
      round: 1,
      persona: 'skeptic',
      criterion: 'market-size',
      category: 'market',
      severity: 'MAJOR',
      challenge: 'Too small.',
      defense: null,
      ruling: { winner: 'RED_TEAM', scoreAdjustment: -1, firstPrinciplesBonus: false, fallacies: [], reasoning: 'r' },
      scoreBefore: 6,
      scoreAfter: 5,
      resolved: true,
      resolution: null,
    };
    expect(conflictSchema.parse(conflict)).toEqual(conflict);
    expect(challengeViewSchema.parse(conflict)).toEqual(conflict);
    const withExtra = { ...conflict, ruling: { ...conflict.ruling, note: 'x' } };
    expect(conflictSchema.safeParse(withExtra).success).toBe(true);
    expect(challengeViewSchema.safeParse(withExtra).success).toBe(false);
  });
});
