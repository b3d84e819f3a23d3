import { useId, useState } from 'react';
import { type ChannelInput, PROVIDERS } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { ProviderNotice } from '../../ui/provider-notice';
import { money } from '../debate/format';

type Provider = ChannelInput<'council:run'>['provider'];
const PROVIDER_WORDS: Record<Provider, string> = {
  simulated: 'offline simulator (free)',
  anthropic: 'Anthropic',
  openai: 'local OpenAI-compatible server',
};

/**
 * Gives the council a task: what to do, optionally the idea it is about, the provider. The task runs
 * in the background; starting opens its page, where its proposals move as the agents answer.
 */
export function RunTaskForm({ autoFocus }: { autoFocus: boolean }) {
  const client = useClient();
  const ids = useId();
  const ideas = useChannel('ideas:list', {});
  const settings = useChannel('settings:get', {});
  const [task, setTask] = useState('');
  const [idea, setIdea] = useState('');
  const [chosen, setChosen] = useState<Provider | null>(null);
  const [seed, setSeed] = useState('');
  const provider: Provider = chosen ?? settings.data?.provider ?? 'simulated';
  // Priced for the provider chosen, from the model table (no key needed); Start waits until it can run.
  const estimate = useChannel('council:estimate', { provider });
  const cannotRun = estimate.data?.cannotRun ?? null;
  const start = useAction(async () => {
    const seedNumber = seed.trim() === '' ? undefined : Number(seed);
    const started = await client.invoke('council:run', {
      task,
      provider,
      ...(idea ? { idea } : {}),
      ...(seedNumber !== undefined && Number.isInteger(seedNumber) ? { seed: seedNumber } : {}),
    });
    navigate(href('council', started.id));
  });
  return (
    <form
      className="card council-form"
      aria-label="Give the council a task"
      onSubmit={(e) => {
        e.preventDefault();
        void start.run();
      }}
    >
      <h2>Give the council a task</h2>
      <label htmlFor={`${ids}-task`}>What should it do?</label>
      <textarea
        id={`${ids}-task`}
        rows={2}
        value={task}
        // biome-ignore lint/a11y/noAutofocus: the palette's "Give the council a task" opens this form to type into
        autoFocus={autoFocus}
        placeholder="Fill the Risks section from its debates’ cruxes · Link the ideas about lichens · Archive what has been paused for a year"
        onChange={(e) => setTask(e.target.value)}
        maxLength={2000}
      />
      <div className="row">
        <label htmlFor={`${ids}-idea`}>About</label>
        <select id={`${ids}-idea`} value={idea} onChange={(e) => setIdea(e.target.value)}>
          <option value="">the whole workspace (no one idea)</option>
          {(ideas.data?.ideas ?? []).map((i) => (
            <option key={i.slug} value={i.slug}>
              {i.title}
            </option>
          ))}
        </select>
        <label htmlFor={`${ids}-provider`}>Provider</label>
        <select id={`${ids}-provider`} value={provider} onChange={(e) => setChosen(e.target.value as Provider)}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_WORDS[p]}
            </option>
          ))}
        </select>
        {provider === 'simulated' && (
          <>
            <label htmlFor={`${ids}-seed`}>Seed</label>
            <input
              id={`${ids}-seed`}
              type="number"
              step="1"
              className="council-seed"
              value={seed}
              onChange={(e) => setSeed(e.target.value)}
              aria-describedby={`${ids}-seed-hint`}
            />
          </>
        )}
        <button
          type="submit"
          className="primary"
          disabled={start.running || task.trim() === '' || estimate.loading || !estimate.data || cannotRun !== null}
        >
          {start.running ? 'Starting…' : 'Start the task'}
        </button>
      </div>
      {provider === 'simulated' && (
        <p id={`${ids}-seed-hint`} className="muted small">
          The simulator plays by its seed: a multiple of 3 agrees at once, one more needs the integrator’s compromise,
          two more a revision; a task that says “archive” proposes a high-stakes change that waits for you.
        </p>
      )}
      <p className="muted small" aria-live="polite" data-testid="estimate">
        {estimate.data
          ? `Likely cost: ${money(estimate.data.usd)}, at worst ${money(estimate.data.worstUsd)} — ${estimate.data.basis}`
          : 'Estimating…'}
      </p>
      <ErrorNotice error={estimate.error} />
      <ProviderNotice reason={cannotRun} />
      <ErrorNotice error={start.error} onDismiss={start.clearError} />
    </form>
  );
}
