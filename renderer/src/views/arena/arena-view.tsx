import { useCallback, useMemo, useState } from 'react';
import type { ArenaCritique } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { personaColours } from '../../ui/persona-colour';
import { ENDED, money, statusBadge } from '../debate/format';
import { AgentColumn } from './agent-column';
import { ArenasPanel } from './arenas-panel';
import { MEASURE_WORDS, OUTCOME_WORDS } from './arena-words';
import { ConvergenceCard } from './convergence-card';
import { HollowCard } from './hollow-card';
import { JudgeCard } from './judge-card';
import { OutcomeCard } from './outcome-card';
import { TournamentCard } from './tournament-card';
import { useArena } from './use-arena';
import { VotesCard } from './votes-card';
import './arena.css';

/**
 * An arena (`#/arena/<id>`): one column per agent with its proposal and revisions as a timeline,
 * critiques pinned to the claims they target; beside them the agreement by round with its measure,
 * the votes (and the re-vote), the judge's scores and ranking, and the hollow-consensus checks.
 * Pause, resume and stop are the runs' own. `#/arena` lists every arena and starts one on a topic.
 */
export function ArenaView({ route }: { route: Route }) {
  const id = route.params[0];
  if (!id) {
    return (
      <section className="view stack">
        <h1>
          Arenas
          <Help term="arena" />
        </h1>
        <p className="muted">
          Agents propose, critique each other, revise toward agreement, vote, and a judge scores them. Start one about
          an idea from its page, or about any question here.
        </p>
        <ArenasPanel slug={null} />
      </section>
    );
  }
  return <LiveArena key={id} id={id} />;
}

function LiveArena({ id }: { id: string }) {
  const client = useClient();
  const { detail: d, error, reload } = useArena(id);
  const [confirmStop, setConfirmStop] = useState(false);

  // In a tournament the contestants are ideas: each agent is named with the idea it champions.
  const ideaOf = useMemo(
    () => new Map((d?.tournament?.ideas ?? []).map((i) => [i.champion, { slug: i.slug, title: i.title }])),
    [d?.tournament],
  );
  const names = useMemo(() => {
    const all = new Map<string, string>(
      (d?.agents ?? []).map((a) => {
        const idea = ideaOf.get(a.id);
        return [a.id, idea ? `${idea.title} (${a.name})` : a.name];
      }),
    );
    if (d) all.set(d.judge.id, d.judge.name);
    return all;
  }, [d, ideaOf]);
  const nameOf = useCallback((a: string) => names.get(a) ?? a, [names]);
  const critiques = useMemo(
    () => new Map<string, ArenaCritique>((d?.agents ?? []).flatMap((a) => a.critiques.map((c) => [c.id, c]))),
    [d],
  );

  const status = d?.status ?? 'running';
  const live = d?.live ?? false;
  const canPause = status === 'running' && live;
  const canResume = status === 'paused' || (status === 'running' && !live && d !== null);
  const canStop = d !== null && !ENDED.has(status);
  const act = useAction(async (what: 'runs:pause' | 'runs:resume' | 'runs:cancel') => {
    await client.invoke(what, { id });
    setConfirmStop(false);
    reload();
  });

  const commands = useMemo<Command[]>(
    () => [
      ...(canPause
        ? [{ id: 'arena:pause', title: 'Pause this arena', group: 'Arena', run: () => act.run('runs:pause') }]
        : []),
      ...(canResume
        ? [{ id: 'arena:resume', title: 'Resume this arena', group: 'Arena', run: () => act.run('runs:resume') }]
        : []),
      ...(canStop
        ? [{ id: 'arena:stop', title: 'Stop this arena for good', group: 'Arena', run: () => setConfirmStop(true) }]
        : []),
      {
        id: 'arena:transcript',
        title: 'Read this arena’s transcript',
        group: 'Arena',
        run: () => navigate(href('transcript', 'run', id)),
      },
      d?.tournament
        ? {
            id: 'arena:ratings',
            title: 'Open the idea Elo leaderboard (this arena is a tournament’s)',
            group: 'Arena',
            run: () => navigate(href('leaderboards', { tab: 'idea-elo' })),
          }
        : {
            id: 'arena:ratings',
            title: 'Open the persona Elo leaderboard',
            group: 'Arena',
            run: () => navigate(href('leaderboards', { tab: 'elo' })),
          },
    ],
    [canPause, canResume, canStop, act.run, id, d?.tournament],
  );
  useCommands('arena-view', commands);

  const last = d?.judgments[d.judgments.length - 1];
  const placeOf = (agent: string) => {
    if (!last) return null;
    const rank = last.ranking.indexOf(agent) + 1;
    const score = last.scores.find((s) => s.agent === agent)?.overall ?? 0;
    return rank > 0 ? { rank, of: last.ranking.length, score } : null;
  };
  const badge = statusBadge(status, live, 'run');
  // The arena's columns side by side: agents whose colours would clash are told apart.
  const colourOf = personaColours((d?.agents ?? []).map((a) => a.id));

  return (
    <section className="view arena-view" aria-busy={status === 'running' && live}>
      <header className="arena-head">
        <div className="stack" style={{ gap: 4, minWidth: 0 }}>
          <nav className="muted small">
            <a href={href('arena')}>Arenas</a>
            {d?.ideaSlug && (
              <>
                {' '}
                · <a href={href('idea', d.ideaSlug)}>the idea</a>
              </>
            )}
          </nav>
          <h1>{d?.topic ?? 'Arena'}</h1>
          <div className="row small">
            <span className={`badge ${badge.tone}`} data-testid="arena-status">
              {badge.label}
            </span>
            {d?.outcome && (
              <span className={`badge ${OUTCOME_WORDS[d.outcome].tone}`}>{OUTCOME_WORDS[d.outcome].label}</span>
            )}
            {d && (
              <>
                <span className="muted">
                  {d.agents.length} agents · judge: {d.judge.name}
                  {d.trickster ? ` · trickster: ${d.trickster.name}` : ' · no trickster'}
                </span>
                <span className="muted">
                  agreement by {MEASURE_WORDS[d.settings.similarity]} ({d.settings.similarity})
                </span>
                <span className="muted" title="Accepted answers, and what they cost">
                  {d.counters.calls} calls · {d.provider === 'simulated' ? 'simulated, free' : money(d.costUsd)}
                </span>
                <a href={href('transcript', 'run', id)}>transcript</a>
              </>
            )}
          </div>
          {d?.reason && !d.outcome && <div className="small muted">Stopped: {d.reason}</div>}
          {d && d.waitingFor.length > 0 && status === 'running' && (
            <div className="small muted" aria-live="polite" data-testid="arena-waiting">
              Waiting for {d.waitingFor.slice(0, 4).join(', ')}
              {d.waitingFor.length > 4 ? ` and ${d.waitingFor.length - 4} more` : ''}…
            </div>
          )}
        </div>
        <div className="row arena-controls">
          {canPause && (
            <button type="button" onClick={() => act.run('runs:pause')} disabled={act.running}>
              Pause
            </button>
          )}
          {canResume && (
            <button type="button" className="primary" onClick={() => act.run('runs:resume')} disabled={act.running}>
              Resume
            </button>
          )}
          {canStop &&
            (confirmStop ? (
              <>
                <button type="button" className="danger" onClick={() => act.run('runs:cancel')} disabled={act.running}>
                  Stop for good
                </button>
                <button type="button" onClick={() => setConfirmStop(false)}>
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="danger" onClick={() => setConfirmStop(true)}>
                Stop
              </button>
            ))}
        </div>
      </header>
      <ErrorNotice error={error} />
      <ErrorNotice error={act.error} onDismiss={act.clearError} />
      {!d && !error && <p className="muted">Reading the arena…</p>}
      {d && (
        <>
          {d.tournament && <TournamentCard t={d.tournament} current={d.id} />}
          <div className="arena-cards">
            <OutcomeCard d={d} nameOf={nameOf} />
            <ConvergenceCard d={d} />
            <VotesCard d={d} nameOf={nameOf} />
            <JudgeCard d={d} nameOf={nameOf} />
            <HollowCard d={d} nameOf={nameOf} />
          </div>
          <h2>
            Proposals, critiques and revisions
            <Help term="proposal" />
          </h2>
          <p className="small muted">
            Each column is one agent’s proposal and every version after it, oldest first; a version shows what it
            changed from the one before (<ins>added</ins>, <del>removed</del>). The critiques
            <Help term="critique" /> of a proposal are pinned to the claim they target, with their severity and whether
            a later version answered them.
          </p>
          <div className="arena-columns">
            {d.agents.map((a) => (
              <AgentColumn
                key={a.id}
                agent={a}
                colour={colourOf(a.id)}
                critiques={critiques}
                nameOf={nameOf}
                place={placeOf(a.id)}
                champions={ideaOf.get(a.id) ?? null}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
