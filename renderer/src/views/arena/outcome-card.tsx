import type { ArenaDetail } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { eloDelta, OUTCOME_WORDS } from './arena-words';

/** How the arena ended, who won, and what it did to each agent's Elo (and how well each one's vote foretold it). */
export function OutcomeCard({ d, nameOf }: { d: ArenaDetail; nameOf: (id: string) => string }) {
  if (!d.outcome) return null;
  const words = OUTCOME_WORDS[d.outcome];
  const judgment = d.judgments[d.judgments.length - 1];
  const winner = judgment?.ranking[0];
  return (
    <section className="card stack arena-card" aria-labelledby="arena-outcome" data-testid="arena-outcome">
      <h3 id="arena-outcome">Outcome</h3>
      <p>
        <span className={`badge ${words.tone}`} data-testid="arena-outcome-badge">
          {words.label}
        </span>{' '}
        <code className="small muted">{d.outcome}</code>
        <Help term={d.outcome} />
        {winner && (
          <>
            {' '}
            — ranked first: <strong>{nameOf(winner)}</strong>
          </>
        )}
      </p>
      {d.elo && (
        <table className="data small" aria-label="Elo before and after this arena">
          <thead>
            <tr>
              <th>{d.tournament ? 'Idea (champion)' : 'Agent'}</th>
              <th className="num">
                Elo
                <Help term="elo" />
              </th>
              <th className="num">Change</th>
              <th className="num">
                Vote Brier
                <Help term="vote-brier" />
              </th>
            </tr>
          </thead>
          <tbody>
            {(judgment?.ranking ?? Object.keys(d.elo.after)).map((a) => {
              const before = d.elo?.before[a] ?? 1500;
              const after = d.elo?.after[a] ?? before;
              const brier = d.voteBrier?.[a];
              return (
                <tr key={a}>
                  <td>{nameOf(a)}</td>
                  <td className="num">
                    {before.toFixed(1)} → {after.toFixed(1)}
                  </td>
                  <td className="num">{eloDelta(before, after)}</td>
                  <td className="num">{brier === undefined ? '—' : brier.toFixed(2)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {d.tournament ? (
        <p className="small muted">
          The ideas’ ratings as they stood when the arena started (1500 for a newcomer), moved by the judge’s ranking of
          their champions with K = {d.settings.eloK}; a tournament’s arena leaves the personas’ own Elo as it was. The{' '}
          <a href={href('leaderboards', { tab: 'idea-elo' })}>Idea Elo leaderboard</a> folds every completed tournament
          arena in order.
        </p>
      ) : (
        <p className="small muted">
          Ratings as they stood when the arena started (1500 for a newcomer), moved by the judge’s ranking with K ={' '}
          {d.settings.eloK}. The <a href={href('leaderboards', { tab: 'elo' })}>Elo leaderboard</a> folds every
          completed arena in order.
        </p>
      )}
    </section>
  );
}
