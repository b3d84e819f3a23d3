import type { ArenaDetail } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { agreement, MEASURE_WORDS } from './arena-words';

/**
 * The agreement score after each revision round, each with the measure that gave it (word overlap
 * is said to be word overlap, never meaning) against the threshold at which the rounds stop early.
 */
export function ConvergenceCard({ d }: { d: ArenaDetail }) {
  const threshold = d.settings.convergenceThreshold;
  const measure = d.settings.similarity;
  return (
    <section className="card stack arena-card" aria-labelledby="arena-convergence" data-testid="arena-convergence">
      <h3 id="arena-convergence">
        Agreement by round
        <Help term="agreement" />
      </h3>
      <p className="small muted">
        Measured by <strong>{MEASURE_WORDS[measure]}</strong> ({measure})
        <Help term={measure} />, from 0 (nothing in common) to 1 (the same); at {agreement(threshold)} or more the
        revision rounds stop early.
      </p>
      {d.convergence.length === 0 ? (
        <p className="small muted">Measured after each revision round; none has ended yet.</p>
      ) : (
        <ul className="arena-bars">
          {d.convergence.map((c) => (
            <li key={c.round} data-testid="convergence-round">
              <span className="small">after round {c.round}</span>
              <span className="arena-bar" title={`${c.score.toFixed(4)} of 1 (${MEASURE_WORDS[c.measure]})`}>
                <span style={{ width: `${Math.round(c.score * 100)}%` }} className={c.converged ? 'ok' : ''} />
                <span className="arena-threshold" style={{ left: `${threshold * 100}%` }} aria-hidden="true" />
              </span>
              <span className="small num">
                {agreement(c.score)} <span className="muted">({c.measure})</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {d.earlyConsensus && (
        <p className="small">
          Agreed early, after round {d.convergence[d.convergence.length - 1]?.round}: the remaining revision rounds and
          the refinement were skipped.
        </p>
      )}
    </section>
  );
}
