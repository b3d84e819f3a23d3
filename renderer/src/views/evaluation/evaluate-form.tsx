import { useId, useState } from 'react';
import { type ChannelInput, EVALUATION_MODES, PROVIDERS } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { ProviderNotice } from '../../ui/provider-notice';
import { checkedOptions, DebateOptionsFields, type DebateOptionsDraft, EMPTY_OPTIONS } from './debate-options';
import { MODE_WORDS, usd } from './format';

type Mode = NonNullable<ChannelInput<'evaluations:start'>['mode']>;
type Provider = ChannelInput<'evaluations:start'>['provider'];

const PROVIDER_WORDS: Record<Provider, string> = {
  simulated: 'offline simulator (free)',
  anthropic: 'Anthropic',
  openai: 'local OpenAI-compatible server',
};

/** A budget that settings.md leaves uncapped is sent as this many dollars. */
export const NO_CAP_USD = 1_000_000;
export const budgetWords = (n: number | null) => (n !== null && n >= NO_CAP_USD ? 'no cap' : usd(n));

/**
 * Starts an evaluation of one idea: mode and provider chosen, the budget (blank: the settings'),
 * and what it will likely cost shown before anything starts. Starting opens the live view.
 */
export function EvaluateForm({ slug }: { slug: string }) {
  const client = useClient();
  const ids = useId();
  const settings = useChannel('settings:get', {});
  const [mode, setMode] = useState<Mode>('standard');
  const [chosen, setChosen] = useState<Provider | null>(null);
  const [budget, setBudget] = useState('');
  const [draft, setDraft] = useState<DebateOptionsDraft>(EMPTY_OPTIONS);
  const checked = checkedOptions(draft);
  const optionsError = 'error' in checked ? checked : null;
  const provider: Provider = chosen ?? settings.data?.provider ?? 'simulated';
  const budgetUsd = budget.trim() === '' ? undefined : Number(budget);
  const input: ChannelInput<'evaluations:estimate'> = {
    slug,
    mode,
    provider,
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
  };
  const estimate = useChannel('evaluations:estimate', settings.data || settings.error ? input : null);
  const start = useAction(async () => {
    if (!('options' in checked)) return;
    const options = Object.keys(checked.options).length > 0 ? { options: checked.options } : {};
    const { id } = await client.invoke('evaluations:start', { ...input, ...options });
    navigate(href('evaluation', id));
  });
  const e = estimate.data;
  const over = e !== null && e.usd > e.budgetUsd;

  return (
    <form
      className="eval-form"
      aria-label="Evaluate this idea"
      onSubmit={(event) => {
        event.preventDefault();
        void start.run();
      }}
    >
      <div className="row">
        <label htmlFor={`${ids}-mode`}>Mode</label>
        <select id={`${ids}-mode`} value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
          {EVALUATION_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_WORDS[m] ?? m}
            </option>
          ))}
        </select>
        <label htmlFor={`${ids}-provider`}>Provider</label>
        <select id={`${ids}-provider`} value={provider} onChange={(event) => setChosen(event.target.value as Provider)}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_WORDS[p]}
            </option>
          ))}
        </select>
        <label htmlFor={`${ids}-budget`}>Budget (USD)</label>
        <input
          id={`${ids}-budget`}
          type="number"
          min="0.01"
          step="0.5"
          placeholder={settings.data ? budgetWords(settings.data.limits.evaluationBudgetUsd || NO_CAP_USD) : '3'}
          value={budget}
          onChange={(event) => setBudget(event.target.value)}
        />
      </div>
      <DebateOptionsFields draft={draft} onChange={setDraft} error={optionsError} />
      <p className="small" aria-live="polite" data-testid="evaluation-estimate">
        {estimate.loading && !e && <span className="muted">Estimating…</span>}
        {e && (
          <>
            Likely <strong>{usd(e.usd)}</strong>, at worst {usd(e.worstUsd)}: {e.basis}; budget{' '}
            {budgetWords(e.budgetUsd)}.
            {over && <span className="badge warn"> the likely cost is over the budget: it will stop early</span>}
          </>
        )}
      </p>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={e?.cannotRun} />
      <div className="row">
        <button
          type="submit"
          className="primary"
          disabled={start.running || estimate.error !== null || !e || e.cannotRun !== null || optionsError !== null}
        >
          {start.running ? 'Starting…' : 'Evaluate'}
        </button>
      </div>
      <ErrorNotice error={start.error} onDismiss={start.clearError} />
    </form>
  );
}
