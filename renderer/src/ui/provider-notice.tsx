import { href } from '../router';

/**
 * Why the chosen provider cannot run (no key, no server), with the way to fix it: the one error a
 * form shows in place of a Start that would only fail.
 */
export function ProviderNotice({ reason }: { reason: string | null | undefined }) {
  if (!reason) return null;
  return (
    <div className="error-notice" role="alert" data-testid="provider-notice">
      <strong>{reason}</strong>
      <span>
        {' '}
        Add it in <a href={href('settings')}>Settings</a>, or choose another provider.
      </span>
    </div>
  );
}
