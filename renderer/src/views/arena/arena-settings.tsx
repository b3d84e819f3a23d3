import { useEffect, useId, useMemo, useState } from 'react';
import { type ChannelInput, PROVIDERS } from '../../../../core/contract';
import { useChannel } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { ProviderNotice } from '../../ui/provider-notice';
import { money } from '../debate/format';
import { MEASURE_WORDS } from './arena-words';

/**
 * What an arena and a tournament of ideas are both started with, shared by their two start forms
 * (the arena form on the idea page, the tournament form in the library): the judge, the trickster,
 * how agreement is measured, the provider and the budget; and the estimate, asked of
 * `arenas:estimate` a moment after the last change, with the one reason the provider cannot run.
 */

type Provider = (typeof PROVIDERS)[number];
export type ArenaRequest = ChannelInput<'arenas:start'>;
type Measure = NonNullable<ArenaRequest['similarity']>;

const PROVIDER_NAMES: Record<Provider, string> = {
  simulated: 'Offline simulator (free)',
  anthropic: 'Anthropic',
  openai: 'Local OpenAI-compatible server',
};

/** The measures offered; the embedding one needs an endpoint this version cannot call yet. */
const MEASURES: { id: Measure; note: string; available: boolean }[] = [
  { id: 'lexical', note: 'free, sees wording only', available: true },
  { id: 'judged', note: 'a model call per round, reads meaning', available: true },
  { id: 'embedding', note: 'needs an embeddings endpoint: not in this version', available: false },
];

/** The settings of a form in the making, with the settings page's provider and budget as defaults. */
export function useArenaSettings({ budgetTimes = 1 }: { budgetTimes?: number } = {}) {
  const settings = useChannel('settings:get', {});
  const [judge, setJudge] = useState('judge');
  const [trickster, setTrickster] = useState(true);
  const [pickedMeasure, setMeasure] = useState<Measure | null>(null);
  const [pickedProvider, setProvider] = useState<Provider | null>(null);
  const [typedBudget, setBudget] = useState<string | null>(null);
  const provider = pickedProvider ?? settings.data?.provider ?? 'simulated';
  // Word overlap offline, a model's judgment with a model: what the CLI does too.
  const measure = pickedMeasure ?? (provider === 'simulated' ? 'lexical' : 'judged');
  // A tournament's budget is for all its arenas: by default the debate budget for each of them.
  const budget = typedBudget ?? String((settings.data?.limits.debateBudgetUsd ?? 2) * budgetTimes);
  const budgetUsd = Number(budget);
  const budgetOk = budget.trim() !== '' && Number.isFinite(budgetUsd) && budgetUsd >= 0;
  /** What every request of the form carries, whatever it is about. */
  const common = useMemo(
    () => ({ judge, trickster, similarity: measure, provider, budgetUsd }),
    [judge, trickster, measure, provider, budgetUsd],
  );
  return {
    judge,
    setJudge,
    trickster,
    setTrickster,
    measure,
    setMeasure,
    provider,
    setProvider,
    budget,
    setBudget,
    budgetUsd,
    budgetOk,
    common,
  };
}
export type ArenaSettings = ReturnType<typeof useArenaSettings>;

/** The judge and trickster, the measure, the provider and the budget, as rows of a form. */
export function ArenaSettingsFields({ s, budgetLabel = 'Budget (USD)' }: { s: ArenaSettings; budgetLabel?: string }) {
  const ids = useId();
  const judges = useChannel('personas:list', { role: 'judge' }).data?.personas ?? [];
  return (
    <>
      <div className="row">
        <label htmlFor={`${ids}-judge`}>Judge</label>
        <select id={`${ids}-judge`} value={s.judge} onChange={(e) => s.setJudge(e.target.value)}>
          {(judges.length > 0 ? judges : [{ id: 'judge', name: 'Judge' }]).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Help term="judge-score" />
        <label>
          <input type="checkbox" checked={s.trickster} onChange={(e) => s.setTrickster(e.target.checked)} />
          Trickster: check a consensus for hollowness
        </label>
        <Help term="trickster" />
      </div>
      <div className="row">
        <label htmlFor={`${ids}-measure`}>Agreement measured by</label>
        <select
          id={`${ids}-measure`}
          className="arena-measure"
          value={s.measure}
          onChange={(e) => s.setMeasure(e.target.value as Measure)}
        >
          {MEASURES.map((m) => (
            <option key={m.id} value={m.id} disabled={!m.available}>
              {MEASURE_WORDS[m.id]} ({m.id}): {m.note}
            </option>
          ))}
        </select>
        <Help term={s.measure} />
      </div>
      <div className="row">
        <label htmlFor={`${ids}-provider`}>Provider</label>
        <select id={`${ids}-provider`} value={s.provider} onChange={(e) => s.setProvider(e.target.value as Provider)}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_NAMES[p]}
            </option>
          ))}
        </select>
        <label htmlFor={`${ids}-budget`}>{budgetLabel}</label>
        <input
          id={`${ids}-budget`}
          type="number"
          min={0}
          step={0.5}
          value={s.budget}
          onChange={(e) => s.setBudget(e.target.value)}
          aria-invalid={!s.budgetOk}
          style={{ width: '7em' }}
        />
      </div>
    </>
  );
}

/**
 * The estimate of `request` (null: the form is not complete), asked a moment after the last change,
 * not on every keystroke; `current` is the one for the provider now chosen, or null while it is asked.
 */
export function useArenaEstimate(request: ArenaRequest | null, provider: string) {
  const [estimateInput, setEstimateInput] = useState<ArenaRequest | null>(null);
  // Keyed by its content: a form redrawn with the same choices (a new object each time) waits for nothing.
  const key = JSON.stringify(request);
  useEffect(() => {
    const timer = setTimeout(() => setEstimateInput(JSON.parse(key) as ArenaRequest | null), 250);
    return () => clearTimeout(timer);
  }, [key]);
  const estimate = useChannel('arenas:estimate', estimateInput);
  // The estimate in hand is for the provider now chosen, or Start waits for the one that is.
  const current = estimateInput?.provider === provider ? estimate.data : null;
  return { current, error: estimate.error, cannotRun: current?.cannotRun ?? null };
}

/** The estimate in words, or what the form still lacks; then the errors, and the way to Settings. */
export function ArenaEstimateLine({
  missing,
  estimate,
}: {
  /** What the form lacks before it can be priced, in words; null when it is complete. */
  missing: string | null;
  estimate: ReturnType<typeof useArenaEstimate>;
}) {
  const { current } = estimate;
  return (
    <>
      <div className="muted small" aria-live="polite" data-testid="arena-estimate">
        {missing ??
          (current
            ? `Likely cost: ${money(current.usd)}, at worst ${money(current.worstUsd)} — ${current.basis}`
            : 'Estimating…')}
      </div>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={estimate.cannotRun} />
    </>
  );
}
