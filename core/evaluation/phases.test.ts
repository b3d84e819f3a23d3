import { describe, expect, it } from 'vitest';
import { canTransition, InvalidTransitionError, transition } from './phases';
import type { Phase } from './vocabulary';
import { PHASES } from './vocabulary';

// The allowed moves, written out by hand from the design page rather than read from the table.
const ALLOWED: readonly string[] = [
  'PENDING→EVALUATING',
  'EVALUATING→DEBATING',
  'DEBATING→SYNTHESIZING',
  'SYNTHESIZING→DEBATING',
  'SYNTHESIZING→REVIEWING',
  'REVIEWING→LOCKED',
  'PENDING→FAILED',
  'EVALUATING→FAILED',
  'DEBATING→FAILED',
  'SYNTHESIZING→FAILED',
  'REVIEWING→FAILED',
  'FAILED→PENDING',
];

function attempt(from: Phase, to: Phase): string {
  try {
    transition(from, to);
    return 'ok';
  } catch (e) {
    if (e instanceof InvalidTransitionError) return e.message;
    throw e;
  }
}

describe('the phase machine', () => {
  it('allows exactly the design page’s moves and rejects every other pair, naming both phases', () => {
    const outcomes: Record<string, string> = {};
    for (const from of PHASES) for (const to of PHASES) outcomes[`${from}→${to}`] = attempt(from, to);
    const allowed = Object.entries(outcomes)
      .filter(([, v]) => v === 'ok')
      .map(([k]) => k);
    expect(allowed.sort()).toEqual([...ALLOWED].sort());
    for (const [pair, outcome] of Object.entries(outcomes)) {
      if (outcome === 'ok') continue;
      const [from, to] = pair.split('→');
      expect(outcome).toContain(`${from} → ${to}`);
      expect(canTransition(from as Phase, to as Phase)).toBe(false);
    }
  });

  it('explains the way out, and that LOCKED is terminal', () => {
    expect(attempt('PENDING', 'LOCKED')).toBe(
      'invalid phase transition PENDING → LOCKED: PENDING may only go to EVALUATING, FAILED',
    );
    expect(attempt('EVALUATING', 'REVIEWING')).toBe(
      'invalid phase transition EVALUATING → REVIEWING: EVALUATING may only go to DEBATING, FAILED',
    );
    expect(attempt('LOCKED', 'FAILED')).toBe('invalid phase transition LOCKED → FAILED: LOCKED is terminal');
    expect(attempt('LOCKED', 'PENDING')).toBe('invalid phase transition LOCKED → PENDING: LOCKED is terminal');
  });

  it('carries both phases on the error', () => {
    let error: unknown;
    try {
      transition('REVIEWING', 'DEBATING');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidTransitionError);
    expect({ from: (error as InvalidTransitionError).from, to: (error as InvalidTransitionError).to }).toEqual({
      from: 'REVIEWING',
      to: 'DEBATING',
    });
  });
});
