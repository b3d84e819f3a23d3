import type { ArenaRatings } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { leftOutWords } from './elo-board';
import { RatingHistoryChart } from './rating-history-chart';

/**
 * Ideas by Elo from tournaments, where the contestants are ideas, each championed by an agent: the
 * table and each idea's rating after every tournament it was in.
 */
export function IdeaEloBoard({ ratings }: { ratings: ArenaRatings }) {
  const rows = ratings.ideas;
  return (
    <div className="stack" data-testid="idea-elo-board">
      <p className="muted small">
        Idea Elo
        <Help term="idea-elo" />: ideas start at 1500 and move with where the judge ranks the proposal championing each
        one in a tournament. {leftOutWords(ratings, ratings.tournamentCounted, 'tournament arena')}
      </p>
      {rows.length === 0 ? (
        <p className="muted" data-testid="idea-elo-empty">
          No tournament has completed in this workspace yet, so no idea has an Elo. In a tournament the contestants are
          ideas: <a href={href('library', { tournament: 1 })}>pick 2 to 8 in the library</a> and every pair meets in a
          head-to-head arena of their champions. The persona Elo of ordinary arenas is on the{' '}
          <a href={href('leaderboards', { tab: 'elo' })}>Persona Elo</a> tab.
        </p>
      ) : (
        <>
          <RatingHistoryChart
            label="Idea Elo after each tournament arena"
            series={rows.slice(0, 6).map((r) => ({ id: r.slug, name: r.title, history: r.history }))}
          />
          <table className="data" aria-label="Idea Elo">
            <thead>
              <tr>
                <th>Idea</th>
                <th className="num">
                  Elo
                  <Help term="idea-elo" />
                </th>
                <th className="num" title="Head-to-head arenas played, and how the judge’s final scores went">
                  Arenas (won · level · lost)
                </th>
                <th className="num">
                  Tournaments
                  <Help term="tournament" />
                </th>
                <th>
                  Champion
                  <Help term="champion" />
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.slug} data-testid="idea-elo-row" data-slug={r.slug}>
                  <td>
                    <a href={href('idea', r.slug)}>{r.title}</a>
                  </td>
                  <td className="num">
                    <strong>{r.elo.toFixed(1)}</strong>
                  </td>
                  <td className="num">
                    {r.arenas} ({r.wins} · {r.draws} · {r.losses})
                  </td>
                  <td className="num">{r.tournaments}</td>
                  <td className="small">{r.champions.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
