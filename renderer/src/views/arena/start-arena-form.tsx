import { useEffect, useId, useMemo, useState } from 'react';
import { type ChannelInput, PROVIDERS } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { ProviderNotice } from '../../ui/provider-notice';
import { money } from '../debate/format';
import { MEASURE_WORDS } from './arena-words';

type Provider = (typeof PROVIDERS)[number];
type Measure = NonNullable<ChannelInput<'arenas:start'>['similarity']>;

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

/**
 * Starts an arena about an idea (its title is the question unless one is typed) or about a question
 * alone: which debaters take part, the judge, the trickster, how agreement is measured, the provider
 * and budget; the likely cost is shown before anything starts, and Start stays off (with the one
 * reason and the way to Settings) while the provider cannot run. Starting opens the arena view.
 */
export function StartArenaForm({ ideaSlug, onCancel }: { ideaSlug: string | null; onCancel?: () => void }) {
  const client = useClient();
  const ids = useId();
  const idea = useChannel('ideas:get', ideaSlug === null ? null : { slug: ideaSlug });
  const debaters = useChannel('personas:list', { role: 'debater' }).data?.personas ?? [];
  const judges = useChannel('personas:list', { role: 'judge' }).data?.personas ?? [];
  const settings = useChannel('settings:get', {});
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [judge, setJudge] = useState('judge');
  const [trickster, setTrickster] = useState(true);
  const [pickedMeasure, setMeasure] = useState<Measure | null>(null);
  const [pickedProvider, setProvider] = useState<Provider | null>(null);
  const [topic, setTopic] = useState('');
  const [typedBudget, setBudget] = useState<string | null>(null);
  const provider = pickedProvider ?? settings.data?.provider ?? 'simulated';
  // Word overlap offline, a model's judgment with a model: what the CLI does too.
  const measure = pickedMeasure ?? (provider === 'simulated' ? 'lexical' : 'judged');
  const budget = typedBudget ?? String(settings.data?.limits.debateBudgetUsd ?? 2);
  const budgetUsd = Number(budget);
  const budgetOk = budget.trim() !== '' && Number.isFinite(budgetUsd) && budgetUsd >= 0;
  const picked = chosen ?? debaters.slice(0, 3).map((p) => p.id);
  const question = topic.trim();

  const request = useMemo<ChannelInput<'arenas:start'> | null>(
    () =>
      picked.length >= 2 && picked.length <= 12 && budgetOk && (ideaSlug !== null || question !== '')
        ? {
            ...(ideaSlug !== null ? { ideaSlug } : {}),
            ...(question !== '' ? { topic: question } : {}),
            agents: picked,
            judge,
            trickster,
            similarity: measure,
            provider,
            budgetUsd,
          }
        : null,
    [ideaSlug, question, picked, judge, trickster, measure, provider, budgetUsd, budgetOk],
  );
  const [estimateInput, setEstimateInput] = useState<typeof request>(null);
  // The estimate follows the form a moment after the last change, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setEstimateInput(request), 250);
    return () => clearTimeout(timer);
  }, [request]);
  const estimate = useChannel('arenas:estimate', estimateInput);
  // The estimate in hand is for the provider now chosen, or Start waits for the one that is.
  const current = estimateInput?.provider === provider ? estimate.data : null;
  const cannotRun = current?.cannotRun ?? null;
  const start = useAction(async (input: ChannelInput<'arenas:start'>) => {
    const { run } = await client.invoke('arenas:start', input);
    navigate(href('arena', run.id));
  });
  const toggle = (id: string) => setChosen(picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id]);

  return (
    <form
      className="start-arena stack card"
      aria-label="Start an arena"
      onSubmit={(e) => {
        e.preventDefault();
        if (request && cannotRun === null) void start.run(request);
      }}
    >
      <label className="stack arena-question" htmlFor={`${ids}-topic`}>
        <span>
          The question every agent answers
          {ideaSlug !== null && idea.data && (
            <span className="muted small"> (blank: “{idea.data.title}”, with the idea’s README as the brief)</span>
          )}
        </span>
        <input
          id={`${ids}-topic`}
          type="text"
          value={topic}
          placeholder={idea.data?.title ?? 'What should we do about …?'}
          onChange={(e) => setTopic(e.target.value)}
          aria-invalid={ideaSlug === null && question === ''}
        />
      </label>
      <fieldset>
        <legend>Agents (2 to 12): each writes a proposal</legend>
        <div className="persona-choices">
          {debaters.map((p) => (
            <label key={p.id} title={p.description}>
              <input type="checkbox" checked={picked.includes(p.id)} onChange={() => toggle(p.id)} />
              {p.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <label htmlFor={`${ids}-judge`}>Judge</label>
        <select id={`${ids}-judge`} value={judge} onChange={(e) => setJudge(e.target.value)}>
          {(judges.length > 0 ? judges : [{ id: 'judge', name: 'Judge' }]).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Help term="judge-score" />
        <label>
          <input type="checkbox" checked={trickster} onChange={(e) => setTrickster(e.target.checked)} />
          Trickster: check a consensus for hollowness
        </label>
        <Help term="trickster" />
      </div>
      <div className="row">
        <label htmlFor={`${ids}-measure`}>Agreement measured by</label>
        <select id={`${ids}-measure`} value={measure} onChange={(e) => setMeasure(e.target.value as Measure)}>
          {MEASURES.map((m) => (
            <option key={m.id} value={m.id} disabled={!m.available}>
              {MEASURE_WORDS[m.id]} ({m.id}): {m.note}
            </option>
          ))}
        </select>
        <Help term={measure} />
      </div>
      <div className="row">
        <label htmlFor={`${ids}-provider`}>Provider</label>
        <select id={`${ids}-provider`} value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_NAMES[p]}
            </option>
          ))}
        </select>
        <label htmlFor={`${ids}-budget`}>Budget (USD)</label>
        <input
          id={`${ids}-budget`}
          type="number"
          min={0}
          step={0.5}
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
          aria-invalid={!budgetOk}
          style={{ width: '7em' }}
        />
      </div>
      <div className="muted small" aria-live="polite" data-testid="arena-estimate">
        {picked.length < 2
          ? 'Choose at least two agents.'
          : ideaSlug === null && question === ''
            ? 'Type the question the agents answer.'
            : !budgetOk
              ? 'The budget must be a number of dollars, 0 for no limit.'
              : current
                ? `Likely cost: ${money(current.usd)}, at worst ${money(current.worstUsd)} — ${current.basis}`
                : 'Estimating…'}
      </div>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={cannotRun} />
      <ErrorNotice error={start.error} onDismiss={start.clearError} />
      <div className="row">
        <button
          type="submit"
          className="primary"
          disabled={!request || !current || start.running || cannotRun !== null}
        >
          {start.running ? 'Starting…' : 'Start the arena'}
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
