import { scoreBackground } from '../evaluation/format';

/** Below this confidence a score is a gap too: scored, but not to be relied on. */
export const LOW_CONFIDENCE = 0.7;

export type CellKind = 'scored' | 'unsure' | 'gap';

export function cellKind(score: number | null, confidence: number | null): CellKind {
  if (score === null) return 'gap';
  return confidence !== null && confidence < LOW_CONFIDENCE ? 'unsure' : 'scored';
}

/** The inline style of a heat cell: the accent colour, stronger for higher scores; none for a gap. */
export function cellStyle(score: number | null): { background?: string } {
  return score === null ? {} : { background: scoreBackground(score) };
}

/**
 * The class of a criterion's cell (`h1`…`h10`, matrix.css): the same colours as `cellStyle`, but
 * from the stylesheet, so the browser resolves ten colours instead of one per drawn cell.
 */
export function heatClass(score: number | null): string {
  return score === null ? '' : `h${Math.max(1, Math.min(10, Math.round(score)))}`;
}

/** What a cell says to a screen reader and in its tooltip. */
export function cellLabel(criterion: string, score: number | null, confidence: number | null): string {
  if (score === null) return `${criterion}: not scored`;
  const sure = confidence === null ? '' : `, confidence ${confidence.toFixed(2)}`;
  return `${criterion}: ${score}/10${sure}${cellKind(score, confidence) === 'unsure' ? ' (low confidence)' : ''}`;
}

/**
 * `share` (0–100) of colour `a` mixed into `b`, both `#rrggbb`, as `rgb()`: what `color-mix(in
 * srgb, a share%, b)` gives, worked out once instead of by the browser for every element that
 * names it. A colour in another form is left to `color-mix`.
 */
export function mixColours(a: string, b: string, share: number): string {
  const hex = /^#([0-9a-f]{6})$/i;
  const [x, y] = [hex.exec(a.trim())?.[1], hex.exec(b.trim())?.[1]];
  if (!x || !y) return `color-mix(in srgb, ${a} ${share}%, ${b})`;
  const channel = (h: string, i: number) => Number.parseInt(h.slice(i * 2, i * 2 + 2), 16);
  const mixed = [0, 1, 2].map((i) => Math.round((channel(x, i) * share + channel(y, i) * (100 - share)) / 100));
  return `rgb(${mixed.join(', ')})`;
}

/** The share of the accent in a score's colour (1 → 12 %, 10 → 90 %), as `scoreBackground` mixes it. */
export function accentShare(score: number): number {
  const share = Math.max(0, Math.min(1, (score - 1) / 9));
  return Math.round(12 + share * 78);
}
