import { describe, expect, it } from 'vitest';
import type { ConsensusLevel } from './config';
import { clearLead, countVotes, rankByScores } from './votes';

const b = (vote: string, confidence = 0.5) => ({ vote, confidence, reason: '-' });
const agents = ['ana', 'ben', 'cy', 'dee', 'eve', 'fay'];

describe('counting a vote', () => {
  it('names the level from the leader’s share, breaking ties by confidence, then by agent order', () => {
    const level = (ballots: Record<string, ReturnType<typeof b>>, needed: ConsensusLevel = 'supermajority') =>
      countVotes(agents, ballots, needed);
    expect({
      unanimous: level({ ana: b('ben'), cy: b('ben') }),
      // V = 6: ⌈12/3⌉ = 4 votes are a supermajority, 3 are not a majority.
      four: level({ ana: b('ben'), cy: b('ben'), dee: b('ben'), eve: b('ben'), ben: b('cy'), fay: b('cy') }),
      threeOfSix: level({ ana: b('ben'), cy: b('ben'), dee: b('ben'), eve: b('cy'), ben: b('cy'), fay: b('cy', 0.9) }),
      tiedByOrder: level({ ana: b('cy'), cy: b('ana') }),
      majorityOnly: level(
        { ana: b('ben'), cy: b('ben'), dee: b('ben'), eve: b('ben'), ben: b('cy'), fay: b('ana') },
        'unanimous',
      ),
    }).toEqual({
      unanimous: { level: 'unanimous', reached: true, leader: 'ben', tally: { ben: 2 } },
      four: { level: 'supermajority', reached: true, leader: 'ben', tally: { ben: 4, cy: 2 } },
      threeOfSix: { level: 'none', reached: false, leader: 'cy', tally: { cy: 3, ben: 3 } },
      tiedByOrder: { level: 'none', reached: false, leader: 'ana', tally: { ana: 1, cy: 1 } },
      majorityOnly: { level: 'supermajority', reached: false, leader: 'ben', tally: { ben: 4, cy: 1, ana: 1 } },
    });
    // A majority that is not a supermajority: 4 of 7 (⌈14/3⌉ = 5).
    const seven = [...agents, 'gus'];
    const four = Object.fromEntries(seven.map((a, i) => [a, b(i < 4 ? 'gus' : 'ana')]));
    four.gus = b('ana');
    expect(countVotes(seven, four, 'majority')).toEqual({
      level: 'majority',
      reached: true,
      leader: 'gus',
      tally: { gus: 4, ana: 3 },
    });
  });

  it('ranks by score, then tally, then agent order, and reads a lead of 1.0 exactly', () => {
    expect({
      ranking: rankByScores(['ana', 'ben', 'cy'], { ana: 7, ben: 7, cy: 7 }, { cy: 1 }),
      lead: clearLead(['ana', 'ben'], { ana: 7.3, ben: 6.3 }),
      short: clearLead(['ana', 'ben'], { ana: 7.2, ben: 6.3 }),
    }).toEqual({ ranking: ['cy', 'ana', 'ben'], lead: true, short: false });
  });
});
