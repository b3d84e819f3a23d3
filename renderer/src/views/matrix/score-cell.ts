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
