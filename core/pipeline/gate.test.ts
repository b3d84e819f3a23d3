import { describe, expect, it } from 'vitest';
import { replayPartial } from '../evaluation/replay';
import { defense, evaluator, header, redteam, ruling, script } from '../evaluation/script-builder';
import { fourCriteria } from '../evaluation/test-setup';
import { criticalChallenges, gateHolds, gateHoldsAtLimit, redTeamReason, redTeamTarget, undefended } from './gate';

describe('the review gate and the red team’s target', () => {
  const challenge = (
    id: string,
    round: number,
    severity: 'CRITICAL' | 'MAJOR',
    winner: 'EVALUATOR' | 'RED_TEAM' | null,
  ) => ({
    id,
    round,
    severity,
    criterion: 'market-size',
    persona: 'skeptic',
    challenge: `challenge ${id} ${'long '.repeat(100)}`,
    ruling: winner ? { winner } : null,
  });

  it('shows the CRITICAL challenges of the rounds this evaluation ran, cut for the log, and holds only at review', () => {
    const all = [
      challenge('r1c1', 1, 'CRITICAL', 'EVALUATOR'),
      challenge('r2c1', 2, 'CRITICAL', 'RED_TEAM'),
      challenge('r2c2', 2, 'MAJOR', 'RED_TEAM'),
      challenge('r2c3', 2, 'CRITICAL', null),
    ];
    const fresh = criticalChallenges(all, 0);
    expect(fresh.map((c) => [c.id, c.winner])).toEqual([
      ['r1c1', 'EVALUATOR'],
      ['r2c1', 'RED_TEAM'],
      ['r2c3', null],
    ]);
    expect(fresh[0]?.challenge).toHaveLength(400);
    // A red-team round reopened after round 1 reviews its own round only.
    const round2 = criticalChallenges(all, 1);
    expect(round2.map((c) => c.id)).toEqual(['r2c1', 'r2c3']);
    expect(undefended(round2).map((c) => c.id)).toEqual(['r2c1', 'r2c3']);
    expect([gateHolds('REVIEWING', round2, false), gateHolds('REVIEWING', round2, true)]).toEqual([true, false]);
    expect([gateHolds('DEBATING', round2, false), gateHolds('REVIEWING', [], false)]).toEqual([false, false]);
  });

  it('attacks the highest score; a tie goes to a critical criterion, then to the least confident', () => {
    const s = (criterion: string, finalScore: number, confidence: number, critical = false) => ({
      criterion,
      name: criterion.toUpperCase(),
      finalScore,
      confidence,
      critical,
    });
    expect(redTeamTarget([s('a', 7, 0.5), s('b', 8, 0.9), s('c', 6, 0.1)])?.criterion).toBe('b');
    expect(redTeamTarget([s('a', 8, 0.5), s('b', 8, 0.9, true)])?.criterion).toBe('b');
    expect(redTeamTarget([s('a', 8, 0.7), s('b', 8, 0.6), s('c', 8, 0.8)])?.criterion).toBe('b');
    expect(redTeamTarget([])).toBeNull();
    // The dispute it opens must carry a reason of at least 50 characters.
    expect(redTeamReason(s('a', 9, 0.5)).length).toBeGreaterThanOrEqual(50);
  });

  it('holds at a limit only what the limit would lock with CRITICAL challenges in it', () => {
    const taxonomy = fourCriteria();
    const opening = [
      header(),
      evaluator('problem', [
        ['alpha', 7, 0.6],
        ['beta', 6, 0.6],
      ]),
      evaluator('risk', [
        ['gamma', 6, 0.6],
        ['delta', 7, 0.6],
      ]),
    ];
    const challenged = [
      ...opening,
      redteam('skeptic', [['beta', 'CRITICAL', 'Beta rests on a single survey of friends']]),
      redteam('realist', []),
      redteam('first-principles', []),
    ];
    const at = (...lines: Parameters<typeof script>) => replayPartial(script(...lines), taxonomy).state;
    const ruled = at(...challenged, defense(), ruling('RED_TEAM'));
    expect(gateHoldsAtLimit(ruled, 'budget', 0, false)?.map((c) => [c.criterion, c.winner])).toEqual([
      ['beta', 'RED_TEAM'],
    ]);
    expect(gateHoldsAtLimit(ruled, 'time', 0, false)).toHaveLength(1);
    // Approved, or a red-team round looking only after round 1: it locks.
    expect([gateHoldsAtLimit(ruled, 'budget', 0, true), gateHoldsAtLimit(ruled, 'budget', 1, false)]).toEqual([
      null,
      null,
    ]);
    // Cut before its first ruling, the round leaves no trace in what locks: nothing to see.
    expect(gateHoldsAtLimit(at(...challenged), 'budget', 0, false)).toBeNull();
    // Cut before every criterion was scored, the evaluation fails rather than locks.
    expect(gateHoldsAtLimit(at(header()), 'budget', 0, false)).toBeNull();
    // Asking does not touch the state it was asked about.
    expect(ruled.phase).not.toBe('LOCKED');
  });
});
