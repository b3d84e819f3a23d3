import type { EvaluationDetail } from '../../../../core/contract';

const TRIGGER_WORDS = { content: 'its own inputs', related: 'a related idea', time: 'time' } as const;

/**
 * "May be stale" and why, for an evaluation the reopen triggers weighed (its own inputs, a related
 * idea re-evaluated since, time), with every check, material or not, one click away.
 */
export function StalenessNote({ d }: { d: EvaluationDetail }) {
  if (d.staleChecks.length === 0) return null;
  const material = d.staleChecks.filter((c) => c.material);
  return (
    <div className="staleness-note small" data-testid="staleness-note">
      {material.length > 0 && (
        <div role="note" aria-label="May be stale">
          <span className="badge warn">may be stale</span>
          <ul>
            {material.map((c) => (
              <li key={c.reason} data-trigger={c.trigger}>
                {c.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <details>
        <summary className="muted">
          Reopen checks ({d.staleChecks.length}, {material.length} material)
        </summary>
        <ul>
          {d.staleChecks.map((c) => (
            <li key={c.reason} data-trigger={c.trigger} data-material={c.material}>
              <span className={`badge${c.material ? ' warn' : ''}`}>{TRIGGER_WORDS[c.trigger]}</span> {c.reason}
              {!c.material && <span className="muted"> — not material</span>}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
