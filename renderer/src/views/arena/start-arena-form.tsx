import { useId, useMemo, useState } from 'react';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import {
  type ArenaRequest,
  ArenaEstimateLine,
  ArenaSettingsFields,
  useArenaEstimate,
  useArenaSettings,
} from './arena-settings';

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
  const settings = useArenaSettings();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [topic, setTopic] = useState('');
  const picked = chosen ?? debaters.slice(0, 3).map((p) => p.id);
  const question = topic.trim();
  const { common, budgetOk } = settings;

  const request = useMemo<ArenaRequest | null>(
    () =>
      picked.length >= 2 && picked.length <= 12 && budgetOk && (ideaSlug !== null || question !== '')
        ? {
            ...(ideaSlug !== null ? { ideaSlug } : {}),
            ...(question !== '' ? { topic: question } : {}),
            agents: picked,
            ...common,
          }
        : null,
    [ideaSlug, question, picked, common, budgetOk],
  );
  const estimate = useArenaEstimate(request, settings.provider);
  const { current, cannotRun } = estimate;
  const start = useAction(async (input: ArenaRequest) => {
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
      <ArenaSettingsFields s={settings} />
      <ArenaEstimateLine
        missing={
          picked.length < 2
            ? 'Choose at least two agents.'
            : ideaSlug === null && question === ''
              ? 'Type the question the agents answer.'
              : !budgetOk
                ? 'The budget must be a number of dollars, 0 for no limit.'
                : null
        }
        estimate={estimate}
      />
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
