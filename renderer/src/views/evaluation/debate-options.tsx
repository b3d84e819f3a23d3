import { useEffect, useId, useState } from 'react';
import {
  type ARBITER_INTERVENTIONS,
  type ChannelInput,
  evaluationOptionsSchema,
  type FIRST_PRINCIPLES_LEVELS,
} from '../../../../core/contract';

export type DebateOptions = NonNullable<ChannelInput<'evaluations:start'>['options']>;

/** What the researcher typed, before it is checked (the minimum confidence is a text field). */
export interface DebateOptionsDraft {
  redTeamersPerEvaluator: '' | '1' | '2' | '3';
  firstPrinciples: '' | (typeof FIRST_PRINCIPLES_LEVELS)[number];
  arbiter: '' | (typeof ARBITER_INTERVENTIONS)[number];
  adjustmentRange: '' | '1' | '2' | '3';
  minConfidence: string;
}

export const EMPTY_OPTIONS: DebateOptionsDraft = {
  redTeamersPerEvaluator: '',
  firstPrinciples: '',
  arbiter: '',
  adjustmentRange: '',
  minConfidence: '',
};

/**
 * The draft as the channel's `options`, checked by the contract's own schema: `{ options }`, or
 * `{ error }` naming the field in the form's words. Blank fields keep their defaults.
 */
export function checkedOptions(
  draft: DebateOptionsDraft,
): { options: DebateOptions } | { error: string; field: string } {
  const raw: Record<string, unknown> = {};
  if (draft.redTeamersPerEvaluator) raw.redTeamersPerEvaluator = Number(draft.redTeamersPerEvaluator);
  if (draft.firstPrinciples) raw.firstPrinciples = draft.firstPrinciples;
  if (draft.arbiter) raw.arbiter = draft.arbiter;
  if (draft.adjustmentRange) raw.adjustmentRange = Number(draft.adjustmentRange);
  if (draft.minConfidence.trim() !== '') raw.minConfidence = Number(draft.minConfidence);
  const parsed = evaluationOptionsSchema.safeParse(raw);
  if (parsed.success) return { options: parsed.data };
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const label = LABELS[field as keyof DebateOptionsDraft] ?? field;
  return { error: `${label}: ${issue?.message ?? 'invalid'}`, field };
}

const LABELS: Record<keyof DebateOptionsDraft, string> = {
  redTeamersPerEvaluator: 'Red-teamers per evaluator',
  firstPrinciples: 'First-principles strictness',
  arbiter: 'Arbiter',
  adjustmentRange: 'Score adjustment range',
  minConfidence: 'Minimum confidence',
};

/**
 * The evaluate form's advanced section: the debate options of seed 12.5, each blank for its default
 * (said beside it). What each does to the protocol: docs/evaluation-protocol.md, "Debate options".
 */
export function DebateOptionsFields({
  draft,
  onChange,
  error,
}: {
  draft: DebateOptionsDraft;
  onChange: (draft: DebateOptionsDraft) => void;
  error: { error: string; field: string } | null;
}) {
  const ids = useId();
  const set = <K extends keyof DebateOptionsDraft>(key: K, value: DebateOptionsDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const chosen = Object.values(draft).filter((v) => v !== '').length;
  const invalid = (field: keyof DebateOptionsDraft) => (error?.field === field ? true : undefined);
  // Opened by the researcher, or by an error to show; it stays open once the error is corrected.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (error !== null) setOpen(true);
  }, [error]);
  return (
    <details className="debate-options" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Debate options <span className="muted small">({chosen === 0 ? 'defaults' : `${chosen} set`})</span>
      </summary>
      <div className="debate-options-grid">
        <label htmlFor={`${ids}-rt`}>{LABELS.redTeamersPerEvaluator}</label>
        <select
          id={`${ids}-rt`}
          value={draft.redTeamersPerEvaluator}
          onChange={(e) =>
            set('redTeamersPerEvaluator', e.target.value as DebateOptionsDraft['redTeamersPerEvaluator'])
          }
        >
          <option value="">any (default)</option>
          <option value="1">at most 1</option>
          <option value="2">at most 2</option>
          <option value="3">at most 3</option>
        </select>
        <label htmlFor={`${ids}-fp`}>{LABELS.firstPrinciples}</label>
        <select
          id={`${ids}-fp`}
          value={draft.firstPrinciples}
          onChange={(e) => set('firstPrinciples', e.target.value as DebateOptionsDraft['firstPrinciples'])}
        >
          <option value="">moderate (default)</option>
          <option value="lenient">lenient: sourced analogies count</option>
          <option value="strict">strict: a fallacy costs the bonus</option>
        </select>
        <label htmlFor={`${ids}-ar`}>{LABELS.arbiter}</label>
        <select
          id={`${ids}-ar`}
          value={draft.arbiter}
          onChange={(e) => set('arbiter', e.target.value as DebateOptionsDraft['arbiter'])}
        >
          <option value="">active: scores move per exchange (default)</option>
          <option value="passive">passive: scores move at the round’s end</option>
        </select>
        <label htmlFor={`${ids}-range`}>{LABELS.adjustmentRange}</label>
        <select
          id={`${ids}-range`}
          value={draft.adjustmentRange}
          onChange={(e) => set('adjustmentRange', e.target.value as DebateOptionsDraft['adjustmentRange'])}
        >
          <option value="">±2 (default)</option>
          <option value="1">±1</option>
          <option value="3">±3</option>
        </select>
        <label htmlFor={`${ids}-conf`}>{LABELS.minConfidence}</label>
        <input
          id={`${ids}-conf`}
          type="number"
          min="0.5"
          max="0.9"
          step="0.05"
          placeholder="0.7"
          value={draft.minConfidence}
          aria-invalid={invalid('minConfidence')}
          aria-describedby={error?.field === 'minConfidence' ? `${ids}-error` : undefined}
          onChange={(e) => set('minConfidence', e.target.value)}
        />
      </div>
      {error && (
        <p id={`${ids}-error`} role="alert" className="small danger-text">
          {error.error}
        </p>
      )}
    </details>
  );
}
