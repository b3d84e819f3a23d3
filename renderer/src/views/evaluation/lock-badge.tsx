import { plainWords } from '../../ui/glossary';
import { Help } from '../../ui/help';
import { lockTone } from './format';

/**
 * Why an evaluation locked, as a badge whose colour says whether to trust it: green only when its
 * scores converged; amber when it stopped on a limit (rounds, budget, time) without converging;
 * neutral when the researcher locked it by hand. A green "locked: MAX_ROUNDS" beside "not
 * converged" read as a success.
 */
export function LockBadge({
  reason,
  title,
  testId = 'lock-badge',
}: {
  reason: string | null;
  title?: string;
  /** Another id where a view shows a second lock badge (the convergence checklist's). */
  testId?: string;
}) {
  const tone = lockTone(reason);
  return (
    <span>
      <span
        className={tone ? `badge ${tone}` : 'badge'}
        title={title ?? reason ?? undefined}
        data-testid={testId}
        data-code={reason ?? undefined}
      >
        locked: {reason === null ? 'reason not recorded' : plainWords(reason)}
        {tone === 'warn' && ' (not converged)'}
      </span>
      {reason && <Help term={reason} />}
    </span>
  );
}
