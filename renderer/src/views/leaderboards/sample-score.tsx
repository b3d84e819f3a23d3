/** The cases a board's score must rest on before it is shown as settled. */
export const SETTLED_FROM = 5;

/**
 * A board's score with the number of cases under it. Under `SETTLED_FROM` cases the score is greyed
 * and says so: "100%" from one exchange, or a Brier score from one falsifier, read as a verdict.
 */
export function SampleScore({ text, n, unit }: { text: string; n: number; unit: string }) {
  const settled = n >= SETTLED_FROM;
  return (
    <span
      className={settled ? 'sample-score' : 'sample-score provisional'}
      data-testid="sample-score"
      data-settled={settled}
      title={
        settled
          ? `from ${n} ${unit}`
          : `from only ${n} ${unit}: a score is shown as settled from ${SETTLED_FROM} ${unit}`
      }
    >
      {settled ? <strong>{text}</strong> : text} <span className="muted small">n={n}</span>
    </span>
  );
}
