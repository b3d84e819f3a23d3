import { ContractError } from '../../../core/contract';

/** What went wrong, in the researcher's words, and what to do about it. */
export function explain(error: unknown): { what: string; todo: string } {
  if (error instanceof ContractError) {
    switch (error.code) {
      case 'bad_input':
        return { what: error.message, todo: 'Correct the highlighted field and try again.' };
      case 'user_error':
        return { what: error.message, todo: 'Check what you asked for and try again.' };
      case 'unauthorized':
        return {
          what: 'This page is not signed in to Crucible’s server.',
          todo: 'Open the address that `npm run web` printed (it carries the session token).',
        };
      case 'forbidden':
      case 'bad_host':
        return { what: error.message, todo: 'Open Crucible from the address it printed, on this computer.' };
      case 'too_large':
        return { what: error.message, todo: 'Use a smaller file, or put it in the idea’s folder yourself.' };
      case 'internal':
        return { what: error.message, todo: 'Try again; if it keeps happening, the log has the details.' };
      default:
        return { what: error.message, todo: 'Try again.' };
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return { what: message, todo: 'Try again; if it keeps happening, restart Crucible.' };
}

export function ErrorNotice({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (error === null || error === undefined) return null;
  const { what, todo } = explain(error);
  return (
    <div className="error-notice" role="alert">
      <strong>{what}</strong>
      <span> {todo}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
