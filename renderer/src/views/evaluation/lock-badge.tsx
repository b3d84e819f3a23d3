import { plainWords } from '../../ui/glossary';
import { Help } from '../../ui/help';

/**
 * Why an evaluation locked, as a badge whose colour says whether to trust it: green only when its
 * scores converged; amber when it stopped on a limit (rounds, budget, time) without converging;
 * neutral when the researcher locked it by hand. A green "locked: MAX_ROUNDS" beside "not
 * converged" read as a success.
 */
export function LockBadge({ reason, title }: { reason: string | null; title?: string }) {
  const tone = reason === 'CONVERGENCE' ? 'ok' : reason === 'USER_APPROVED' || reason === null ? '' : 'warn';
  return (
    <span>
      <span className={`badge ${tone}`} title={title} data-testid="lock-badge" data-code={reason ?? undefined}>
        locked: {reason === null ? 'reason not recorded' : plainWords(reason)}
        {tone === 'warn' && ' (not converged)'}
      </span>
      {reason && <Help term={reason} />}
    </span>
  );
}
