import { useMemo } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { CalibrationBoard } from './calibration-board';
import { EloBoard } from './elo-board';
import { IdeaEloBoard } from './idea-elo-board';
import { IdeasBoard } from './ideas-board';
import { PersonasBoard } from './personas-board';
import './leaderboards.css';

type Tab = 'ideas' | 'personas' | 'elo' | 'idea-elo';
const TABS: readonly Tab[] = ['ideas', 'personas', 'elo', 'idea-elo'];

/**
 * Leaderboards: ideas by overall score, the agents by the arbiter's rulings and by their
 * calibration in crux debates (`?tab=personas`), personas by Elo from arenas with a rating-history
 * chart (`?tab=elo`), and ideas by Elo from tournaments (`?tab=idea-elo`).
 * Both follow evaluations as they lock and the folder as it changes.
 */
export function LeaderboardsView({ route }: { route: Route }) {
  const asked = route.query.get('tab');
  const tab: Tab = TABS.find((t) => t === asked) ?? 'ideas';
  const ideas = useChannel('evaluations:leaderboard', {});
  const personas = useChannel('evaluations:personaRatings', tab === 'personas' ? {} : null);
  const calibration = useChannel('ledger:calibration', tab === 'personas' ? {} : null);
  const elo = useChannel('arenas:ratings', tab === 'elo' || tab === 'idea-elo' ? {} : null);
  usePush('run:status', (p) => {
    // A completed arena moves the Elo of its agents (an arena that ends otherwise changes none).
    if (p.protocol === 'arena' && p.status === 'completed' && (tab === 'elo' || tab === 'idea-elo')) elo.reload();
    // An evaluation that completed has locked: its record and the idea's synthesis are written.
    if (p.protocol !== 'evaluation' || p.status !== 'completed') return;
    ideas.reload();
    if (tab === 'personas') personas.reload();
  });
  usePush('sync:changed', (r) => {
    if (r.added + r.changed + r.removed > 0) ideas.reload();
  });

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'leaderboards:personas',
        title: 'Leaderboard of personas (red team and evaluators)',
        group: 'View',
        keywords: 'personas agents ratings arbiter',
        run: () => navigate(href('leaderboards', { tab: 'personas' })),
      },
      {
        id: 'leaderboards:elo',
        title: 'Leaderboard of persona Elo from arenas (with the rating history)',
        group: 'View',
        keywords: 'elo arena ratings personas history chart',
        run: () => navigate(href('leaderboards', { tab: 'elo' })),
      },
      {
        id: 'leaderboards:idea-elo',
        title: 'Leaderboard of idea Elo from tournaments',
        group: 'View',
        keywords: 'elo ideas tournament ratings',
        run: () => navigate(href('leaderboards', { tab: 'idea-elo' })),
      },
    ],
    [],
  );
  useCommands('leaderboards-view', commands);

  const tabs: { id: Tab; label: string }[] = [
    { id: 'ideas', label: `Ideas${ideas.data ? ` (${ideas.data.ideas.length})` : ''}` },
    { id: 'personas', label: 'Personas' },
    { id: 'elo', label: 'Persona Elo' },
    { id: 'idea-elo', label: 'Idea Elo' },
  ];
  return (
    <section className="view leaderboards">
      <h1>Leaderboards</h1>
      <div className="row tabs" role="tablist" aria-label="Leaderboards">
        {tabs.map((t) => (
          <a
            key={t.id}
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className={`tab${tab === t.id ? ' active' : ''}`}
            href={t.id === 'ideas' ? href('leaderboards') : href('leaderboards', { tab: t.id })}
          >
            {t.label}
          </a>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'ideas' && (
          <>
            <ErrorNotice error={ideas.error} />
            {!ideas.data && !ideas.error && <p className="muted">Loading…</p>}
            {ideas.data && <IdeasBoard rows={ideas.data.ideas} categories={ideas.data.categories} />}
          </>
        )}
        {(tab === 'elo' || tab === 'idea-elo') && (
          <>
            <ErrorNotice error={elo.error} />
            {!elo.data && !elo.error && <p className="muted">Loading…</p>}
            {elo.data && (tab === 'elo' ? <EloBoard ratings={elo.data} /> : <IdeaEloBoard ratings={elo.data} />)}
          </>
        )}
        {tab === 'personas' && (
          <>
            <ErrorNotice error={personas.error} />
            {!personas.data && !personas.error && <p className="muted">Loading…</p>}
            {personas.data && <PersonasBoard rows={personas.data.personas} />}
            <ErrorNotice error={calibration.error} />
            {calibration.data && <CalibrationBoard rows={calibration.data.agents} />}
          </>
        )}
      </div>
    </section>
  );
}
