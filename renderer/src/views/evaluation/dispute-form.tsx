import { useId, useState } from 'react';
import { MIN_DISPUTE_REASON_CHARS } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';

/**
 * Disputes one criterion of the idea's locked evaluation: a reason of at least 50 characters, then
 * one targeted round on that criterion, followed in the live view. The disputed record stays.
 */
export function DisputeForm({
  slug,
  criteria,
  initial,
  onClose,
}: {
  slug: string;
  criteria: { id: string; name: string; score: number | null }[];
  initial?: string;
  onClose: () => void;
}) {
  const client = useClient();
  const ids = useId();
  const [criterion, setCriterion] = useState(initial ?? criteria[0]?.id ?? '');
  const [reason, setReason] = useState('');
  const settings = useChannel('settings:get', {});
  const length = [...reason.trim()].length;
  const dispute = useAction(async () => {
    // The settings' provider, as for any new run (the simulator until one is chosen there).
    const provider = settings.data?.provider ?? 'simulated';
    const { id } = await client.invoke('evaluations:dispute', { slug, criterion, reason, provider });
    navigate(href('evaluation', id));
  });
  return (
    <form
      className="eval-form card"
      aria-label="Dispute a criterion"
      onSubmit={(event) => {
        event.preventDefault();
        void dispute.run();
      }}
    >
      <div className="row">
        <label htmlFor={`${ids}-criterion`}>Criterion</label>
        <select id={`${ids}-criterion`} value={criterion} onChange={(e) => setCriterion(e.target.value)}>
          {criteria.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.score ?? '—'})
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={`${ids}-reason`} className="small">
        Why is this score wrong? ({length} of at least {MIN_DISPUTE_REASON_CHARS} characters)
      </label>
      <textarea
        id={`${ids}-reason`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-invalid={length > 0 && length < MIN_DISPUTE_REASON_CHARS}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={dispute.running || length < MIN_DISPUTE_REASON_CHARS}>
          Dispute: run one targeted round
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
        <span className="muted small">The disputed evaluation stays as it is; the new one supersedes it.</span>
      </div>
      <ErrorNotice error={dispute.error} onDismiss={dispute.clearError} />
    </form>
  );
}
