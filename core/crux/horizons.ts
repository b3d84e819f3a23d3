import type { Horizon } from './vocabulary';
import { HORIZONS } from './vocabulary';

/** The most common horizon; a tie goes to the longer horizon, the one that outlasts short-term noise. */
export function dominantHorizon(horizons: Iterable<Horizon>): Horizon | null {
  const counts = new Map<Horizon, number>();
  for (const h of horizons) counts.set(h, (counts.get(h) ?? 0) + 1);
  let best: Horizon | null = null;
  let bestCount = 0;
  // HORIZONS runs short to long, so `>=` lets a longer horizon win a tie.
  for (const h of HORIZONS) {
    const n = counts.get(h) ?? 0;
    if (n > 0 && n >= bestCount) {
      best = h;
      bestCount = n;
    }
  }
  return best;
}
