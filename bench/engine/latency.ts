import { rngFor } from '../../core/sim/prng';

/**
 * Latency of each fake answer: `meanMs` ± `jitterMs`, drawn from a seeded generator so two runs of
 * the bench wait exactly as long (in request order). Every draw is kept, in order, for the report.
 */
export function jitteredLatency(
  seed: number,
  meanMs: number,
  jitterMs: number,
): { next: () => number; drawn: number[] } {
  const rng = rngFor(seed, 'bench-latency');
  const drawn: number[] = [];
  return {
    drawn,
    next: () => {
      const ms = Math.round(meanMs + (rng() * 2 - 1) * jitterMs);
      drawn.push(ms);
      return ms;
    },
  };
}
