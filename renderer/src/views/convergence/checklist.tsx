import type { EvaluationDetail } from '../../../../core/contract';
import { pct, score } from '../evaluation/format';
import { Term } from '../evaluation/terms';

type Report = NonNullable<EvaluationDetail['latestConvergence']>;

/** Moves between whole scores: a whole number, or as many decimals as it needs (up to two). */
const n = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined ? '—' : String(Number(x.toFixed(digits)));

function Item({ met, title, children }: { met: boolean; title: string; children: React.ReactNode }) {
  return (
    <li className={`check ${met ? 'met' : 'unmet'}`} data-met={met}>
      <span className="mark" aria-hidden="true">
        {met ? '✓' : '✗'}
      </span>
      <div>
        <strong>{title}</strong> <span className={`badge ${met ? 'ok' : 'warn'}`}>{met ? 'met' : 'not met'}</span>
        <div className="small">{children}</div>
      </div>
    </li>
  );
}

/**
 * The four conditions of convergence after one round, each with its numbers: stability, confidence,
 * resolution of challenges, saturation; then the decision and what still blocks it.
 */
export function Checklist({ report, name }: { report: Report; name: (id: string) => string }) {
  const { stability, confidence, resolution, saturation } = report.conditions;
  return (
    <div className="stack">
      <ul className="checklist" aria-label={`Convergence conditions after round ${report.round}`}>
        <Item met={stability.met} title="Stability">
          every criterion moved ≤ {stability.maxDelta} in each of the last {stability.roundsNeeded} rounds, and the last
          round’s moves add up to ≤ {stability.aggregateDelta}.{' '}
          {stability.rounds.length === 0
            ? 'No round run yet.'
            : stability.rounds
                .map(
                  (r) =>
                    `Round ${r.round}: largest move ${n(r.maxMove)}, sum ${n(r.sumOfMoves)}${r.moved.length ? ` (${r.moved.map((m) => `${name(m.criterion)} ${m.from}→${m.to}`).join(', ')})` : ''}`,
                )
                .join('; ')}
        </Item>
        <Item met={confidence.met} title="Confidence">
          every criterion ≥ {score(confidence.minimum)}, critical ones ≥ {score(confidence.criticalMinimum)}; lowest{' '}
          {score(confidence.lowest)}.
          {confidence.below.length > 0 &&
            ` Below: ${confidence.below.map((b) => `${name(b.criterion)} ${score(b.confidence)} (needs ${score(b.required)})`).join(', ')}.`}
        </Item>
        <Item met={resolution.met} title="Challenges resolved">
          CRITICAL {resolution.critical.resolved} of {resolution.critical.total}
          {resolution.critical.unresolved.length > 0 && ` (open: ${resolution.critical.unresolved.join(', ')})`}; MAJOR{' '}
          {resolution.major.resolved} of {resolution.major.total}
          {resolution.major.share !== null && ` = ${pct(resolution.major.share)}`}, needs ≥{' '}
          {pct(resolution.major.required)}.
        </Item>
        <Item met={saturation.met} title="Saturation">
          {saturation.newInsights} new insight{saturation.newInsights === 1 ? '' : 's'} (saturated below{' '}
          {saturation.minNewInsights}); {saturation.repeats} repeats of {saturation.raised} raised
          {saturation.repeatShare !== null && ` = ${pct(saturation.repeatShare)}`} (saturated above{' '}
          {pct(saturation.maxRepeatShare)}){saturation.roundLimitReached ? '; round limit reached' : ''}.
        </Item>
      </ul>
      <p>
        After round {report.round} of {report.roundLimit}:{' '}
        <strong data-testid="convergence-decision">
          {report.converged ? 'converged' : 'not converged'} →{' '}
          {report.decision === 'LOCK' ? (
            <>lock ({report.lockReason ? <Term term={report.lockReason} /> : 'reason not recorded'})</>
          ) : (
            'another round'
          )}
        </strong>
      </p>
      {report.blockers.length > 0 && (
        <ul className="small muted">
          {report.blockers.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
