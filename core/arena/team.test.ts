import { describe, expect, it } from 'vitest';
import type { PersonaRating } from './ratings';
import { selectTeam } from './team';

const rating = (id: string, elo: number, arenas: number, voteBrier: number | null): PersonaRating => ({
  id,
  elo,
  arenas,
  wins: 0,
  votes: voteBrier === null ? 0 : arenas,
  voteBrier,
});

describe('team selection', () => {
  // ana 1530; ben and cy tie at 1516, cy with the lower Brier; dan and eve tie at 1500 with equal
  // Brier, so id decides; fay never voted; gus and hal never played (1500, no Brier, 0 arenas).
  const debaters = ['hal', 'gus', 'fay', 'eve', 'dan', 'cy', 'ben', 'ana'];
  const ratings = [
    rating('ana', 1530, 4, 0.2),
    rating('ben', 1516, 3, 0.3),
    rating('cy', 1516, 5, 0.1),
    rating('dan', 1500, 2, 0.25),
    rating('eve', 1500, 1, 0.25),
    rating('fay', 1500, 1, null),
  ];

  it('takes the N − 1 best by Elo (then lower Brier, then id) and the least-played of the rest', () => {
    expect([3, 5, 7].map((n) => selectTeam(debaters, ratings, n).agents)).toEqual([
      // ana, then cy before ben on Brier; the least-played of the rest: gus and hal have 0, gus by id.
      ['ana', 'cy', 'gus'],
      // dan before eve by id at equal Elo and Brier.
      ['ana', 'cy', 'ben', 'dan', 'gus'],
      // At 1500 eve (a Brier) comes before fay, gus and hal (none), who are then ranked by id.
      ['ana', 'cy', 'ben', 'dan', 'eve', 'fay', 'gus'],
    ]);
  });

  it('says why each was picked, and refuses a size it cannot fill', () => {
    const pick = selectTeam(debaters, ratings, 3);
    expect(pick.reasons).toEqual({
      ana: 'rank 1 by Elo (1530.0, vote Brier 0.200)',
      cy: 'rank 2 by Elo (1516.0, vote Brier 0.100)',
      gus: 'the least-played of the others (0 arenas)',
    });
    expect(() => selectTeam(['a', 'b'], [], 3)).toThrow('--size 3 asks for more debaters than the 2 there are');
    expect(() => selectTeam(debaters, ratings, 1)).toThrow('--size must be a whole number from 2 to 12 (got 1)');
  });
});
