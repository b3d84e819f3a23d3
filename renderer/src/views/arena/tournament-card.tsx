import type { ArenaTournamentView } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { money, statusBadge } from '../debate/format';
import { OUTCOME_WORDS } from './arena-words';

/**
 * The tournament an arena is a meeting of: its ideas with their champions, and every meeting with
 * how it went (its status, outcome and winning idea) and a link to its arena. Read again whenever an
 * arena's status changes, so the next meeting appears as it starts, while this one stays in view.
 */
export function TournamentCard({ t, current }: { t: ArenaTournamentView; current: string }) {
  const schedule = useChannel('arenas:tournament', { id: t.id });
  usePush('run:status', (p) => {
    if (p.protocol === 'arena') schedule.reload();
  });
  const titleOf = (slug: string) => t.ideas.find((i) => i.slug === slug)?.title ?? slug;
  const s = schedule.data;
  const played = s?.meetings.filter((m) => m.status === 'completed').length ?? 0;
  const unplayed = s?.meetings.filter((m) => m.run === null).length ?? 0;
  const running = s?.meetings.some((m) => m.status === 'running' || m.status === 'paused') ?? false;
  return (
    <section className="card stack tournament-card" aria-labelledby="tournament-head" data-testid="arena-tournament">
      <h3 id="tournament-head">
        Tournament of {t.ideas.length} ideas
        <Help term="tournament" /> · arena {t.index} of {t.of}
      </h3>
      <p className="small">
        {t.ideas.map((i, k) => (
          <span key={i.slug}>
            {k > 0 && ', '}
            <a href={href('idea', i.slug)}>{i.title}</a> <span className="muted">({i.champion})</span>
          </span>
        ))}
        <span className="muted">
          {' '}
          — each idea argued by its champion
          <Help term="champion" />
        </span>
      </p>
      <ErrorNotice error={schedule.error} />
      {s && (
        <table className="data small" aria-label="The tournament’s arenas">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Meeting</th>
              <th>Status</th>
              <th>Ranked first</th>
              <th className="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {s.meetings.map((m) => {
              const badge = m.status ? statusBadge(m.status, m.live, 'run') : null;
              const here = m.run === current;
              return (
                <tr
                  key={m.index}
                  data-testid="tournament-meeting"
                  data-status={m.status ?? 'waiting'}
                  aria-current={here ? 'true' : undefined}
                  className={here ? 'current' : undefined}
                >
                  <td className="num">{m.index}</td>
                  <td>
                    {m.run && !here ? (
                      <a href={href('arena', m.run)}>
                        {titleOf(m.pairing[0])} vs {titleOf(m.pairing[1])}
                      </a>
                    ) : (
                      <>
                        {titleOf(m.pairing[0])} vs {titleOf(m.pairing[1])}
                        {here && <span className="muted"> (this arena)</span>}
                      </>
                    )}
                  </td>
                  <td>
                    {badge ? (
                      <span className={`badge ${badge.tone}`}>{badge.label}</span>
                    ) : (
                      <span className="muted">not started</span>
                    )}
                    {m.outcome && <span className="muted"> · {OUTCOME_WORDS[m.outcome].label}</span>}
                  </td>
                  <td>
                    {m.winner ? (
                      <>
                        {titleOf(m.winner)}
                        {m.scores && (
                          <span className="muted">
                            {' '}
                            ({m.pairing.map((slug) => (m.scores?.[slug] ?? 0).toFixed(1)).join(' – ')})
                          </span>
                        )}
                      </>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="num">{m.run ? money(m.costUsd) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {s && (
        <p className="small muted" data-testid="tournament-state">
          {unplayed === 0 && !running
            ? `Played: ${played} of ${s.meetings.length} arenas completed. `
            : s.playing
              ? 'Each next arena starts when the one before it ends. '
              : !running
                ? `Stopped before its end: ${unplayed} arena(s) not started (the command line’s \`arena --tournament ${s.id}\` continues it). `
                : ''}
          Completed arenas move the ideas’ ratings on the{' '}
          <a href={href('leaderboards', { tab: 'idea-elo' })}>Idea Elo leaderboard</a>.
        </p>
      )}
    </section>
  );
}
