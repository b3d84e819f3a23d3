import { useState } from 'react';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { ProviderNotice } from '../../ui/provider-notice';
import { baselineOfferWords } from './baseline-words';

interface Props {
  debateId: string;
  /** The debate's provider, which the single pass runs on too. */
  provider: string;
  /** Called once the single pass is stored: the view reads the debate again and shows it. */
  onDone: () => void;
}

/**
 * Was the debate worth it, for a debate that ended without the single pass beside it: the cost of
 * asking each debater once, alone, is shown first (`debates:baselineEstimate`), and only a second
 * click asks them (`debates:baseline`), on the debate's own provider.
 */
export function BaselineOffer({ debateId, provider, onDone }: Props) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const estimate = useChannel('debates:baselineEstimate', open ? { id: debateId } : null);
  const cannotRun = estimate.data?.cannotRun ?? null;
  const ask = useAction(async () => {
    await client.invoke('debates:baseline', { id: debateId });
    onDone();
  });
  if (!open)
    return (
      <div className="row">
        <button type="button" onClick={() => setOpen(true)} data-testid="baseline-offer">
          Compare with a single pass…
        </button>
      </div>
    );
  return (
    <section
      className="card stack outcome-card"
      aria-labelledby="baseline-offer-title"
      data-testid="baseline-offer-card"
    >
      <h2 id="baseline-offer-title">Was the debate worth it?</h2>
      <p className="outcome-line small">
        Ask each debater once, without the debate, on the {provider === 'simulated' ? 'offline simulator' : provider}:
        where it stands, how sure it is, and the crux it would name. Its answers are set beside what the debate reached,
        with both costs, and kept beside the debate.
      </p>
      <p className="small muted" aria-live="polite" data-testid="baseline-estimate">
        {estimate.data ? baselineOfferWords(estimate.data) : estimate.error ? '' : 'Estimating…'}
      </p>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={cannotRun} />
      <ErrorNotice error={ask.error} onDismiss={ask.clearError} />
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => void ask.run()}
          disabled={!estimate.data || cannotRun !== null || ask.running}
          data-testid="baseline-run"
        >
          {ask.running ? 'Asking each debater…' : 'Run the single pass'}
        </button>
        <button type="button" onClick={() => setOpen(false)} disabled={ask.running}>
          Cancel
        </button>
      </div>
    </section>
  );
}
