import type { ArenaDetail, ArenaVoteView } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { LEVEL_WORDS, passWords, percent } from './arena-words';

function Vote({ vote, nameOf, cast }: { vote: ArenaVoteView; nameOf: (id: string) => string; cast: number }) {
  return (
    <div className="stack arena-vote" data-testid="arena-vote" data-pass={vote.pass}>
      <div className="row small">
        <strong>{passWords(vote.pass)}</strong>
        {vote.pass === 'T' && <Help term="re-vote" />}
        <span className={`badge ${vote.reached ? 'ok' : 'warn'}`}>
          {LEVEL_WORDS[vote.level]}
          {vote.reached ? ', enough for consensus' : ', not enough for consensus'}
        </span>
        <Help term="consensus-level" />
      </div>
      <ul className="arena-bars" aria-label={`Tally of ${passWords(vote.pass)}`}>
        {vote.tally.map((t) => (
          <li key={t.agent}>
            <span className="small">{nameOf(t.agent)}</span>
            <span className="arena-bar" title={`${t.votes} of ${cast} votes`}>
              <span style={{ width: `${(t.votes / Math.max(1, cast)) * 100}%` }} />
            </span>
            <span className="small num">
              {t.votes} of {cast}
            </span>
          </li>
        ))}
      </ul>
      <details>
        <summary className="small">Each agent’s vote, how sure it was, and why</summary>
        <ul className="small arena-ballots">
          {vote.ballots.map((b) => (
            <li key={b.agent}>
              <strong>{nameOf(b.agent)}</strong> → {nameOf(b.vote)}{' '}
              <span className="muted" title="The chance it gave this proposal of being ranked first">
                ({percent(b.confidence)} sure)
              </span>
              : {b.reason}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

/** Every vote of the arena: the tally with its consensus level, and the re-vote beside the first. */
export function VotesCard({ d, nameOf }: { d: ArenaDetail; nameOf: (id: string) => string }) {
  return (
    <section className="card stack arena-card" aria-labelledby="arena-votes" data-testid="arena-votes">
      <h3 id="arena-votes">Votes</h3>
      <p className="small muted">
        Each agent votes for the proposal it expects the judge to rank first (never its own); consensus needs{' '}
        {LEVEL_WORDS[d.settings.consensus]}.
      </p>
      {d.votes.length === 0 ? (
        <p className="small muted">No vote yet.</p>
      ) : (
        d.votes.map((v) => <Vote key={v.pass} vote={v} nameOf={nameOf} cast={v.ballots.length} />)
      )}
    </section>
  );
}
