import { describe, expect, it } from 'vitest';
import { decayedConfidence, type RelatedIdea, relatedCheck, timeDecayCheck } from './reopen-triggers';

// The reopen triggers and their materiality checks.

const LOCKED = '2026-01-10T12:00:00.000Z';
const related = (over: Partial<RelatedIdea> = {}): RelatedIdea => ({
  slug: 'ebike',
  title: 'E-bike workshop',
  type: 'conflicts',
  strength: 0.5,
  link: 'conflicts with',
  current: { completedAt: '2026-02-01T09:00:00.000Z', overallScore: 5.1, recommendation: 'PAUSE' },
  previous: { overallScore: 6.3, recommendation: 'REFINE' },
  ...over,
});

describe('relatedCheck', () => {
  it('is material when a strong link’s idea was re-evaluated after this one and moved a point or changed its recommendation', () => {
    expect(relatedCheck(LOCKED, related())).toEqual({
      trigger: 'related',
      material: true,
      reason:
        '“E-bike workshop”, which this idea conflicts with, was re-evaluated on 2026-02-01: overall 6.30 → 5.10, REFINE → PAUSE',
    });
    // A point, same recommendation: still material.
    expect(relatedCheck(LOCKED, related({ previous: { overallScore: 6.1, recommendation: 'PAUSE' } }))?.material).toBe(
      true,
    );
  });

  it('weighs the change and the link, and says why one is not material', () => {
    const checks = [
      related({ previous: { overallScore: 5.5, recommendation: 'PAUSE' } }),
      related({ strength: 0.3 }),
      related({ strength: null, type: 'related', link: 'is related to' }),
      related({ previous: null }),
    ].map((r) => relatedCheck(LOCKED, r));
    expect(checks.map((c) => [c?.material, c?.reason])).toEqual([
      [
        false,
        '“E-bike workshop”, which this idea conflicts with, was re-evaluated on 2026-02-01 (overall 5.50 → 5.10): under 1 point and the same recommendation',
      ],
      [
        false,
        '“E-bike workshop”, which this idea conflicts with, was re-evaluated on 2026-02-01 (overall 6.30 → 5.10, REFINE → PAUSE), but the link is weak (strength 0.3, under 0.5)',
      ],
      [
        false,
        '“E-bike workshop”, which this idea is related to, was re-evaluated on 2026-02-01 (overall 6.30 → 5.10, REFINE → PAUSE), but the link is weak (strength none, under 0.5)',
      ],
      [
        false,
        '“E-bike workshop”, which this idea conflicts with, was evaluated for the first time on 2026-02-01: there is no earlier score to compare',
      ],
    ]);
  });

  it('is no trigger when the related idea did not change since, or has no evaluation', () => {
    expect([
      relatedCheck(
        LOCKED,
        related({ current: { completedAt: '2026-01-01T00:00:00.000Z', overallScore: 5, recommendation: 'PAUSE' } }),
      ),
      relatedCheck(LOCKED, related({ current: null })),
    ]).toEqual([null, null]);
  });
});

describe('timeDecayCheck', () => {
  const day = (n: number) => new Date(Date.parse(LOCKED) + n * 86_400_000);

  it('halves the confidence every year; material once under the minimum and 0.1 taken', () => {
    expect(decayedConfidence(0.8, 365)).toBeCloseTo(0.4, 10);
    const evaluation = { completedAt: LOCKED, confidence: 0.8, minimum: 0.7 };
    // 365 · log2(0.8 / 0.7) = 70.3 days to cross 0.7; by then 0.1 is taken too.
    expect([timeDecayCheck(evaluation, day(70)), timeDecayCheck(evaluation, day(71))]).toEqual([
      {
        trigger: 'time',
        material: false,
        reason: '70 days old: its confidence 0.80 has decayed to 0.70; it may be stale from 2026-03-22',
      },
      {
        trigger: 'time',
        material: true,
        reason:
          '71 days old: its confidence 0.80 has decayed to 0.70 (halving every 365 days), under the 0.70 it needed',
      },
    ]);
  });

  it('does not call an evaluation locked under the bar stale on its first day', () => {
    const low = { completedAt: LOCKED, confidence: 0.6, minimum: 0.7 };
    // Already under 0.7; 0.1 is taken after 365 · log2(0.6 / 0.5) = 96.01 days, so from day 97.
    expect([
      timeDecayCheck(low, day(1)).material,
      timeDecayCheck(low, day(95)).material,
      timeDecayCheck(low, day(97)).material,
    ]).toEqual([false, false, true]);
    expect(timeDecayCheck(low, day(1)).reason).toBe(
      '1 day old: its confidence 0.60 has decayed to 0.60; it may be stale from 2026-04-17',
    );
  });
});
