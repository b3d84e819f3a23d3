import { useState } from 'react';
import { earlyOutcome, FALSIFIER_OUTCOMES, type LedgerFalsifier } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';

const OUTCOME_WORDS: Record<(typeof FALSIFIER_OUTCOMES)[number], string> = {
  falsified: 'Falsified — the threshold was crossed; the position was wrong',
  survived: 'Survived — the deadline passed without it',
  ambiguous: 'Ambiguous — the evidence does not settle it',
  void: 'Void — the question no longer applies',
};

/**
 * Records how one falsifier resolved (outcome, day, note) as its entry in the researcher's
 * ledger.md; a second record replaces the first, so this also corrects one.
 */
export function ResolveForm({
  falsifier,
  today,
  onDone,
  onCancel,
}: {
  falsifier: LedgerFalsifier;
  today: string;
  onDone: (message: string | null) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const previous = falsifier.resolution;
  const [outcome, setOutcome] = useState<(typeof FALSIFIER_OUTCOMES)[number]>(previous?.outcome ?? 'survived');
  const [resolvedOn, setResolvedOn] = useState(previous?.resolvedOn ?? today);
  const [note, setNote] = useState(previous?.note ?? '');
  const [early, setEarly] = useState(false);
  const ahead = earlyOutcome(outcome, resolvedOn, falsifier.deadlineDate);
  const blocked = ahead === 'refuse' || (ahead === 'ask' && !early);
  const save = useAction(async () => {
    const result = await client.invoke('ledger:resolveFalsifier', {
      debateId: falsifier.debateId,
      thread: falsifier.thread,
      agent: falsifier.agent,
      outcome,
      resolvedOn,
      note,
      early: ahead === 'ask' && early,
    });
    onDone(
      result.conflict
        ? `ledger.md changed while this was being saved: your file was left as it is and this record was written beside it as ${result.path}.`
        : null,
    );
  });
  return (
    <form
      className="resolve-form stack"
      aria-label={`How ${falsifier.agentName}'s falsifier resolved`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked) void save.run();
      }}
    >
      <div className="row">
        <label>
          Outcome
          <select value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)}>
            {FALSIFIER_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {OUTCOME_WORDS[o]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Resolved on
          <input type="date" value={resolvedOn} max={today} required onChange={(e) => setResolvedOn(e.target.value)} />
        </label>
      </div>
      <label className="stack" style={{ alignItems: 'stretch', gap: 2 }}>
        Note (what happened, with a source)
        <textarea rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      {ahead === 'refuse' && (
        <p className="ahead-notice" role="alert" data-testid="early-outcome">
          The deadline is {falsifier.deadlineDate}: a falsifier cannot have survived its deadline on {resolvedOn}.
          Record it after the deadline, or as falsified if the threshold was crossed.
        </p>
      )}
      {ahead === 'ask' && (
        <label className="ahead-notice" data-testid="early-outcome">
          <input type="checkbox" checked={early} onChange={(e) => setEarly(e.target.checked)} /> The deadline is{' '}
          {falsifier.deadlineDate}, after {resolvedOn}: record it as {outcome} ahead of the deadline anyway
        </label>
      )}
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.running || blocked}>
          {save.running ? 'Saving…' : 'Save to ledger.md'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
