import type { ArenaDetail, ArenaHollowView } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { plainWords } from '../../ui/glossary';
import { percent } from './arena-words';

type Reason = ArenaHollowView['reasons'][number];

/** Each check with the number behind it and the line it is held against. */
function checksOf(
  h: ArenaHollowView,
  authorOf: (critique: string) => string,
): { code: Reason; figure: string; rule: string }[] {
  return [
    {
      code: 'ADOPTION',
      figure:
        h.adoptionShare === null
          ? '—'
          : `${percent(h.adoptionShare)} of all changes adopted from others, by ${h.adopters ?? 0} agent${h.adopters === 1 ? '' : 's'}`,
      rule: 'holds at 50% or more, by 2 agents or more',
    },
    {
      code: 'UNADDRESSED_CRITICAL',
      figure:
        h.unaddressedCritical.length === 0
          ? 'none left unanswered'
          : `${h.unaddressedCritical.length} left unanswered: ${h.unaddressedCritical
              .map((id) => `${id} (from ${authorOf(id)})`)
              .join(', ')}`,
      rule: 'holds when a critical critique of the winning proposal was never answered',
    },
    {
      code: 'THIN_EVIDENCE',
      figure:
        h.evidenceShare === null ? '—' : `${percent(h.evidenceShare)} of the winning proposal’s claims carry evidence`,
      rule: 'holds under 50%',
    },
    {
      code: 'TOO_FAST',
      figure: `${h.convergedIn === null ? 'did not agree early' : `agreed in round ${h.convergedIn}`}; ${h.critiqueChanges ?? 0} change${h.critiqueChanges === 1 ? '' : 's'} cited a critique`,
      rule: 'holds when agreed in round 3 with no change citing a critique',
    },
  ];
}

/**
 * The trickster's four hollow-consensus checks with their numbers, the challenge when one held,
 * and what the re-vote did to the consensus.
 */
export function HollowCard({ d, nameOf }: { d: ArenaDetail; nameOf: (id: string) => string }) {
  const h = d.hollow;
  if (!h) return null;
  const authors = new Map(d.agents.flatMap((a) => a.critiques.map((c) => [c.id, c.author] as const)));
  const authorOf = (critique: string) => nameOf(authors.get(critique) ?? critique);
  return (
    <section className="card stack arena-card" aria-labelledby="arena-hollow" data-testid="arena-hollow">
      <h3 id="arena-hollow">
        Hollow-consensus checks
        <Help term="hollow" />
      </h3>
      {!h.ran ? (
        <p className="small muted">
          {d.trickster?.name ?? 'The trickster'}
          <Help term="trickster" /> checks the first vote that reaches consensus;{' '}
          {d.status === 'running' || d.status === 'paused' ? 'none has yet.' : 'none did, so the checks never ran.'}
        </p>
      ) : (
        <>
          <p className="small">
            {h.detected ? (
              <span className="badge warn">hollow: {h.reasons.length} of 4 checks hold</span>
            ) : (
              <span className="badge ok">not hollow: no check holds, no challenge</span>
            )}
          </p>
          <ul className="arena-checks">
            {checksOf(h, authorOf).map((c) => {
              const holds = h.reasons.includes(c.code);
              return (
                <li key={c.code} className={holds ? 'holds' : ''} data-testid="hollow-check" data-holds={holds}>
                  <span className="arena-check-mark" aria-hidden="true">
                    {holds ? '!' : '✓'}
                  </span>
                  <div>
                    <strong>{plainWords(c.code)}</strong> <code className="small muted">{c.code}</code>
                    <Help term={c.code} /> <span className="small">{holds ? 'holds' : 'does not hold'}</span>
                    <div className="small">{c.figure}</div>
                    <div className="small muted">{c.rule}</div>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {d.challenge && (
        <blockquote className="arena-challenge small" data-testid="arena-challenge">
          <strong>
            {d.trickster?.name ?? 'The trickster'} challenges {nameOf(d.challenge.target)}’s proposal:
          </strong>{' '}
          {d.challenge.text}
        </blockquote>
      )}
      {h.afterChallenge && (
        <p className="small">
          After one more revision and the re-vote, the consensus <strong>{h.afterChallenge}</strong>
          <Help term={h.afterChallenge} />.
        </p>
      )}
    </section>
  );
}
