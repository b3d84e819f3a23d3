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

/**
 * The horizon a question's own time frame asks about ("within 18 months" → 12-18mo, "within 5
 * years" → 5y): the shortest horizon that covers it. Null when the question names no time frame.
 */
export function questionHorizon(question: string | null | undefined): Horizon | null {
  const frame = /\bwithin (\d+) (month|year)s?\b/i.exec(question ?? '');
  if (!frame) return null;
  const months = Number(frame[1]) * ((frame[2] as string).toLowerCase() === 'year' ? 12 : 1);
  return months <= 3 ? '1-3mo' : months <= 18 ? '12-18mo' : months <= 60 ? '5y' : '10y+';
}
