import { useMemo, useState } from 'react';
import { MAX_TOURNAMENT_IDEAS } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import {
  type ArenaRequest,
  ArenaEstimateLine,
  ArenaSettingsFields,
  useArenaEstimate,
  useArenaSettings,
} from './arena-settings';
import './arena.css';

/** Every pair of ideas once, in the order they were picked: the schedule `arenas:start` plays. */
function pairsOf<T>(items: readonly T[]): [T, T][] {
  return items.flatMap((a, i) => items.slice(i + 1).map((b): [T, T] => [a, b]));
}

/**
 * Starts a tournament of the ideas picked in the library (ARENA-PROTOCOL.md, "Ratings"): each idea
 * is championed by a debater persona, every pair of ideas meets once in a head-to-head arena, and
 * the judge's scores move the ideas' Elo. The judge, trickster, measure, provider and budget are the
 * arena form's own fields, and the likely cost of all its arenas comes from the same estimate
 * before anything starts. Starting opens the first arena; the others follow it.
 */
export function StartTournamentForm({
  ideas,
  onRemove,
  onCancel,
}: {
  /** The ideas picked, in the order they were picked. */
  ideas: readonly { slug: string; title: string }[];
  onRemove: (slug: string) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const debaters = useChannel('personas:list', { role: 'debater' }).data?.personas ?? [];
  const [picks, setPicks] = useState<Record<string, string>>({});
  const meetings = pairsOf(ideas);
  const settings = useArenaSettings({ budgetTimes: Math.max(1, meetings.length) });
  const { common, budgetOk } = settings;

  // An idea's champion is the one picked for it, else the first debater no other idea has.
  const champions = useMemo(() => {
    const taken = new Set(ideas.flatMap((i) => (picks[i.slug] ? [picks[i.slug]] : [])));
    const free = debaters.map((p) => p.id).filter((id) => !taken.has(id));
    return ideas.map((i) => picks[i.slug] ?? free.shift() ?? '');
  }, [ideas, picks, debaters]);
  const twice = champions.find((c, i) => c !== '' && champions.indexOf(c) < i);
  const nameOf = (id: string) => debaters.find((p) => p.id === id)?.name ?? id;

  const missing =
    ideas.length < 2
      ? 'Tick at least two ideas in the list: a tournament sets every pair of them against each other.'
      : ideas.length > MAX_TOURNAMENT_IDEAS
        ? `A tournament takes at most ${MAX_TOURNAMENT_IDEAS} ideas (${(MAX_TOURNAMENT_IDEAS * (MAX_TOURNAMENT_IDEAS - 1)) / 2} arenas): untick ${ideas.length - MAX_TOURNAMENT_IDEAS}.`
        : debaters.length > 0 && champions.includes('')
          ? `There are ${debaters.length} debater personas, one per idea: untick ${ideas.length - debaters.length} idea(s).`
          : twice
            ? `${nameOf(twice)} champions two ideas: each idea needs its own champion.`
            : !budgetOk
              ? 'The budget must be a number of dollars, 0 for no limit.'
              : null;
  // A new object each time: the estimate follows its content, not its identity.
  const request: ArenaRequest | null =
    missing === null && debaters.length > 0 ? { ideas: ideas.map((i) => i.slug), agents: champions, ...common } : null;
  const estimate = useArenaEstimate(request, settings.provider);
  const { current, cannotRun } = estimate;
  const start = useAction(async (input: ArenaRequest) => {
    const { run } = await client.invoke('arenas:start', input);
    navigate(href('arena', run.id));
  });
  const titleOf = (slug: string) => ideas.find((i) => i.slug === slug)?.title ?? slug;

  return (
    <form
      className="start-tournament stack"
      aria-label="Start a tournament"
      onSubmit={(e) => {
        e.preventDefault();
        if (request && cannotRun === null) void start.run(request);
      }}
    >
      <h2>
        A tournament of {ideas.length} {ideas.length === 1 ? 'idea' : 'ideas'}
        <Help term="idea-elo" />
      </h2>
      <p className="muted small">
        Tick ideas in the list. Each is argued by its champion; every pair meets once, and the judge’s scores move the
        ideas’ Elo.
      </p>
      {ideas.length > 0 && (
        <fieldset>
          <legend>Ideas and their champions</legend>
          <ol className="tournament-ideas" data-testid="tournament-ideas">
            {ideas.map((idea, i) => (
              <li key={idea.slug} data-slug={idea.slug}>
                <span className="muted">{i + 1}.</span>
                <span className="one-line" title={idea.title}>
                  {idea.title}
                </span>
                <select
                  aria-label={`Champion of “${idea.title}”`}
                  value={champions[i] ?? ''}
                  onChange={(e) => setPicks({ ...picks, [idea.slug]: e.target.value })}
                >
                  {champions[i] === '' && <option value="">—</option>}
                  {debaters.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="link"
                  aria-label={`Leave out “${idea.title}”`}
                  onClick={() => onRemove(idea.slug)}
                >
                  ×
                </button>
              </li>
            ))}
          </ol>
        </fieldset>
      )}
      {meetings.length > 0 && ideas.length <= MAX_TOURNAMENT_IDEAS && (
        <details className="small">
          <summary>
            {meetings.length} head-to-head {meetings.length === 1 ? 'arena' : 'arenas'}, one after another
          </summary>
          <ol className="tournament-schedule" data-testid="tournament-preview-schedule">
            {meetings.map(([a, b]) => (
              <li key={`${a.slug}|${b.slug}`}>
                {titleOf(a.slug)} <span className="muted">vs</span> {titleOf(b.slug)}
              </li>
            ))}
          </ol>
        </details>
      )}
      <ArenaSettingsFields s={settings} budgetLabel={`Budget for all ${Math.max(1, meetings.length)} arenas (USD)`} />
      <ArenaEstimateLine missing={missing} estimate={estimate} />
      <ErrorNotice error={start.error} onDismiss={start.clearError} />
      <div className="row">
        <button
          type="submit"
          className="primary"
          disabled={!request || !current || start.running || cannotRun !== null}
        >
          {start.running ? 'Starting…' : 'Start the tournament'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
