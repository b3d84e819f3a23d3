import { describe, expect, it } from 'vitest';
import { eloAfter, expectedScore, voteBrierScores } from './elo';

describe('Elo after an arena', () => {
  it('plays every pair from the ratings before the arena, scaled by K/(N−1), and keeps the sum', () => {
    const before = { ana: 1550, ben: 1500, cy: 1450 };
    const after = eloAfter(['ana', 'ben', 'cy'], { ana: 7, ben: 7, cy: 6.5 }, before, 32);
    const e = (a: number, b: number) => 1 / (1 + 10 ** ((b - a) / 400));
    expect({
      after,
      sum: Object.values(after).reduce((s, x) => s + x, 0),
      even: expectedScore(1500, 1500),
    }).toEqual({
      after: {
        ana: 1550 + 16 * (0.5 - e(1550, 1500) + 1 - e(1550, 1450)),
        ben: 1500 + 16 * (0.5 - e(1500, 1550) + 1 - e(1500, 1450)),
        cy: 1450 + 16 * (0 - e(1450, 1550) + 0 - e(1450, 1500)),
      },
      sum: expect.closeTo(4500, 9),
      even: 0.5,
    });
  });

  it('scores each vote as a forecast that its proposal ranks first', () => {
    const v = (vote: string, confidence: number) => ({ vote, confidence, reason: '-' });
    expect(voteBrierScores({ ana: v('cy', 0.75), ben: v('cy', 1), cy: v('ana', 0.6) }, 'cy')).toEqual({
      ana: 0.0625,
      ben: 0,
      cy: 0.36,
    });
  });
});
