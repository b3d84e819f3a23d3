import { useEffect, useMemo, useState } from 'react';
import { type ChannelInput, PROVIDERS } from '../../../../core/contract';
import { AdvancedConfig, type AdvancedFields, configOf } from './advanced-config';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { ProviderNotice } from '../../ui/provider-notice';
import { money } from './format';
import { Markdown } from '../../ui/markdown';

const PROVIDER_NAMES: Record<(typeof PROVIDERS)[number], string> = {
  simulated: 'Offline simulator (free)',
  anthropic: 'Anthropic',
  openai: 'Local OpenAI-compatible server',
};

/**
 * Starts a crux debate about an idea: which debaters, which provider, what budget, and (folded away)
 * the protocol settings a researcher tunes most; the likely cost is shown before anything starts. The idea the debaters will read (its summary and README) is shown
 * too, so the researcher sees what the debate is about. Starting opens the live view.
 */
export function StartDebateForm({ ideaSlug, onCancel }: { ideaSlug: string; onCancel?: () => void }) {
  const client = useClient();
  const idea = useChannel('ideas:get', { slug: ideaSlug });
  const personas = useChannel('personas:list', { role: 'debater' });
  const debaters = personas.data?.personas ?? [];
  // The provider and budget start from the settings page's; what the researcher picks here wins.
  const settings = useChannel('settings:get', {});
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [pickedProvider, setProvider] = useState<(typeof PROVIDERS)[number] | null>(null);
  const [typedBudget, setBudget] = useState<string | null>(null);
  const provider = pickedProvider ?? settings.data?.provider ?? 'simulated';
  const budget = typedBudget ?? String(settings.data?.limits.debateBudgetUsd ?? 2);
  const picked = chosen ?? debaters.slice(0, 4).map((p) => p.id);
  const budgetUsd = Number(budget);
  const budgetOk = budget.trim() !== '' && Number.isFinite(budgetUsd) && budgetUsd >= 0;
  const [advanced, setAdvanced] = useState<AdvancedFields>({});
  const [baseline, setBaseline] = useState(false);
  const config = useMemo(() => configOf(advanced), [advanced]);

  const request = useMemo<ChannelInput<'debates:start'> | null>(
    () =>
      picked.length >= 2 && picked.length <= 12 && budgetOk && config.problem === null
        ? {
            ideaSlug,
            agents: picked,
            provider,
            limits: { budgetUsd },
            ...(config.value ? { config: config.value } : {}),
            ...(baseline ? { baseline: true } : {}),
          }
        : null,
    [ideaSlug, picked, provider, budgetUsd, budgetOk, config, baseline],
  );
  const [estimateInput, setEstimateInput] = useState<typeof request>(null);
  // The estimate follows the form a moment after the last change, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setEstimateInput(request), 250);
    return () => clearTimeout(timer);
  }, [request]);
  const estimate = useChannel('debates:estimate', estimateInput);
  // The estimate in hand is for the provider now chosen, or Start waits for the one that is.
  const current = estimateInput?.provider === provider ? estimate.data : null;
  const cannotRun = current?.cannotRun ?? null;
  const start = useAction(async (input: ChannelInput<'debates:start'>) => {
    const started = await client.invoke('debates:start', input);
    navigate(href('debate', started.id));
  });

  const toggle = (id: string) => setChosen(picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id]);

  return (
    <form
      className="start-debate stack card"
      aria-label="Start a crux debate"
      onSubmit={(e) => {
        e.preventDefault();
        if (request) void start.run(request);
      }}
    >
      <section className="debate-subject" aria-label="What every debater reads" data-testid="debate-subject">
        <h3>What every debater reads</h3>
        <ErrorNotice error={idea.error} />
        {idea.data && (
          <>
            <p>
              <strong>{idea.data.title}</strong>
            </p>
            {idea.data.summary ? (
              <Markdown text={idea.data.summary} className="muted" />
            ) : (
              <p className="muted">This idea has no summary: the debaters read its README alone.</p>
            )}
            <details>
              <summary>The README ({idea.data.readme.split(/\s+/).filter(Boolean).length} words)</summary>
              <pre className="small" style={{ whiteSpace: 'pre-wrap', maxHeight: '16em', overflow: 'auto' }}>
                {idea.data.readme}
              </pre>
            </details>
          </>
        )}
      </section>
      <fieldset>
        <legend>Debaters (2 to 12)</legend>
        <ErrorNotice error={personas.error} />
        <div className="persona-choices">
          {debaters.map((p) => (
            <label key={p.id} title={p.description}>
              <input type="checkbox" checked={picked.includes(p.id)} onChange={() => toggle(p.id)} />
              {p.name}
              {p.side && <span className="muted small">{p.side}</span>}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <label>
          Provider
          <select value={provider} onChange={(e) => setProvider(e.target.value as (typeof PROVIDERS)[number])}>
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_NAMES[p]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Budget (USD)
          <input
            type="number"
            min={0}
            step={0.5}
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
            aria-invalid={!budgetOk}
            style={{ width: '7em' }}
          />
        </label>
      </div>
      <AdvancedConfig fields={advanced} onChange={setAdvanced} check={config} debaters={picked.length} />
      <label title="Once the debate ends, each debater is asked once, alone: its side, confidence and the crux it would name, set beside what the debate reached. The estimate below counts those calls.">
        <input type="checkbox" checked={baseline} onChange={(e) => setBaseline(e.target.checked)} />
        Also measure a single pass (one call per debater, alone) to compare the debate with
      </label>
      <div className="muted small" aria-live="polite" data-testid="estimate">
        {picked.length < 2
          ? 'Choose at least two debaters.'
          : !budgetOk
            ? 'The budget must be a number of dollars, 0 for no limit.'
            : config.problem !== null
              ? 'Correct the advanced settings to see the cost.'
              : estimate.data
                ? `Likely cost: ${money(estimate.data.usd)}, at worst ${money(estimate.data.worstUsd)} — ${estimate.data.basis}`
                : 'Estimating…'}
      </div>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={cannotRun} />
      <ErrorNotice error={start.error} onDismiss={start.clearError} />
      <div className="row">
        <button type="submit" className="primary" disabled={!request || start.running || cannotRun !== null}>
          {start.running ? 'Starting…' : 'Start the debate'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
