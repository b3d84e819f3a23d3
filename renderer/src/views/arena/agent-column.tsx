import { href } from '../../router';
import type { ArenaAgentView, ArenaCritique, ArenaVersion, DiffPart } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { percent } from './arena-words';

/** A text as changed from the previous version: removed words struck through, added ones marked. */
export function DiffText({ parts }: { parts: DiffPart[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.op === 'same' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
          <span key={i}>{p.text}</span>
        ) : p.op === 'added' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
          <ins key={i}>{p.text}</ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
          <del key={i}>{p.text}</del>
        ),
      )}
    </>
  );
}

/** When a critique was answered, by the round of the version that said so. */
function answeredWhen(round: string): string {
  if (round === '6') return 'in the refinement';
  if (round === 'T') return 'after the challenge';
  if (round.startsWith('X')) return `in extended round ${round.slice(1)}`;
  return `in revision ${round}`;
}

const changed = (parts: DiffPart[] | undefined) => parts?.some((p) => p.op !== 'same') ?? false;

function SeverityBadge({ severity }: { severity: ArenaCritique['severity'] }) {
  const tone = severity === 'CRITICAL' ? 'danger' : severity === 'MAJOR' ? 'warn' : '';
  return (
    <span className="sev">
      <span className={`badge ${tone}`}>{severity.toLowerCase()}</span>
      <Help term={severity} />
    </span>
  );
}

/**
 * One critique, where it is pinned: who made it, how severe, and whether a later version answered it
 * (or, once its target left the arena, that nobody can any more).
 */
function CritiqueNote({ c, nameOf, closed }: { c: ArenaCritique; nameOf: (id: string) => string; closed: boolean }) {
  return (
    <li className={`arena-critique sev-${c.severity.toLowerCase()}`} data-testid="critique" data-critique={c.id}>
      <div className="row small">
        <SeverityBadge severity={c.severity} />
        <span>
          from <strong>{nameOf(c.author)}</strong>
        </span>
        <code className="muted">{c.id}</code>
        {c.addressedIn ? (
          <span className="badge ok" title={`Listed as answered by the version of round ${c.addressedIn}`}>
            answered {answeredWhen(c.addressedIn)}
          </span>
        ) : closed ? (
          <span className="badge" title="Its target left the arena, so nobody can answer it">
            no longer open
          </span>
        ) : (
          <span className="badge">not answered</span>
        )}
      </div>
      <p>{c.text}</p>
      {c.fix && <p className="muted small">Fix: {c.fix}</p>}
    </li>
  );
}

function ChangeLine({
  change,
  critiques,
  nameOf,
}: {
  change: ArenaVersion['changes'][number];
  critiques: ReadonlyMap<string, ArenaCritique>;
  nameOf: (id: string) => string;
}) {
  const why =
    change.because === 'critique'
      ? (() => {
          const c = critiques.get(change.ref);
          return c
            ? `because of ${nameOf(c.author)}’s ${c.severity.toLowerCase()} critique ${c.id}`
            : `because of critique ${change.ref}`;
        })()
      : change.because === 'adopted'
        ? `adopted from ${nameOf(change.ref)}`
        : `own reason: ${change.ref}`;
  return (
    <li>
      {change.what} <span className={`muted${change.because === 'adopted' ? ' adopted' : ''}`}>({why})</span>
    </li>
  );
}

/** One version of the proposal in the timeline: its text against the one before, its claims, its changes. */
function VersionCard({
  version,
  critiques,
  pinned,
  nameOf,
  latest,
  left,
}: {
  version: ArenaVersion;
  critiques: ReadonlyMap<string, ArenaCritique>;
  /** The critiques of this agent's proposal, pinned here (they were made on the first version). */
  pinned: ArenaCritique[] | null;
  nameOf: (id: string) => string;
  latest: boolean;
  /** Whether its agent left the arena: the critiques of its proposal are no longer open. */
  left: boolean;
}) {
  const d = version.diff;
  const term = version.round === '1' ? 'proposal' : version.round === '6' ? 'refinement' : 'revision';
  const general = pinned?.filter((c) => c.claim === null || !version.claims.some((x) => x.id === c.claim)) ?? [];
  const claimsShown = d ? version.claims.filter((c) => c.change !== 'same') : version.claims;
  return (
    <li className={`arena-version${latest ? ' latest' : ''}`} data-testid="arena-version" data-round={version.round}>
      <div className="row small arena-version-head">
        <strong>{version.label}</strong>
        <Help term={term === 'revision' && version.round.startsWith('X') ? 'extended-round' : term} />
        <span className="muted" title="How sure the agent is that this is the best answer">
          sure {percent(version.confidence)}
        </span>
        {latest && <span className="badge accent">latest</span>}
      </div>
      <h4 className="arena-title">{d && changed(d.title) ? <DiffText parts={d.title} /> : version.title}</h4>
      <p className="arena-summary">{d && changed(d.summary) ? <DiffText parts={d.summary} /> : version.summary}</p>
      {d && !changed(d.title) && !changed(d.summary) && !changed(d.body) && (
        <p className="muted small">The text is the same as the version before.</p>
      )}
      <details className="arena-body">
        <summary className="small">
          {d ? (changed(d.body) ? 'The full text, changes marked' : 'The full text (unchanged)') : 'The full text'}
        </summary>
        <p>{d ? <DiffText parts={d.body} /> : version.body}</p>
      </details>
      {general.length > 0 && (
        <ul className="arena-critiques" aria-label="Critiques of the proposal as a whole">
          {general.map((c) => (
            <CritiqueNote key={c.id} c={c} nameOf={nameOf} closed={left} />
          ))}
        </ul>
      )}
      {(claimsShown.length > 0 || version.droppedClaims.length > 0) && (
        <ul className="arena-claims" aria-label={d ? 'Claims new or changed' : 'Claims'}>
          {claimsShown.map((claim) => {
            const on = pinned?.filter((c) => c.claim === claim.id) ?? [];
            return (
              <li key={claim.id} data-claim={claim.id}>
                <div>
                  <code>{claim.id}</code> {claim.text}{' '}
                  {claim.change && claim.change !== 'same' && <span className="badge accent">{claim.change}</span>}{' '}
                  {claim.evidence.length === 0 ? (
                    <span className="badge warn" title="No source supports this claim yet">
                      no evidence
                    </span>
                  ) : (
                    <span className="badge" title={claim.evidence.map((e) => `${e.source}: “${e.quote}”`).join('\n')}>
                      {claim.evidence.length} source{claim.evidence.length === 1 ? '' : 's'}
                    </span>
                  )}
                </div>
                {on.length > 0 && (
                  <ul className="arena-critiques" aria-label={`Critiques of claim ${claim.id}`}>
                    {on.map((c) => (
                      <CritiqueNote key={c.id} c={c} nameOf={nameOf} closed={left} />
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
          {version.droppedClaims.map((id) => (
            <li key={id} className="muted">
              <del>
                <code>{id}</code> dropped
              </del>
            </li>
          ))}
        </ul>
      )}
      {version.changes.length > 0 && (
        <div className="small">
          <strong>What changed and why</strong>
          <ul className="arena-changes">
            {version.changes.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a version's changes never move
              <ChangeLine key={i} change={c} critiques={critiques} nameOf={nameOf} />
            ))}
          </ul>
        </div>
      )}
      {version.addressed.length > 0 && (
        <p className="small">
          Says it answers
          <Help term="addressed" />: {version.addressed.join(', ')}
        </p>
      )}
    </li>
  );
}

/**
 * One agent's column: its proposal and every revision as a timeline (each against the one before),
 * the critiques of its proposal pinned to the claims they target, and where the judge placed it; an
 * agent that left the arena says so, and why, above what it wrote before it left.
 */
export function AgentColumn({
  agent,
  colour,
  critiques,
  nameOf,
  place,
  champions,
}: {
  agent: ArenaAgentView;
  colour: string;
  critiques: ReadonlyMap<string, ArenaCritique>;
  nameOf: (id: string) => string;
  place: { rank: number; of: number; score: number } | null;
  /** In a tournament's arena: the idea this agent argues for. */
  champions?: { slug: string; title: string } | null;
}) {
  return (
    <section
      className={`arena-column card${agent.left !== null ? ' left' : ''}`}
      style={{ borderTopColor: colour }}
      aria-label={`${agent.name}’s proposal`}
      data-testid="arena-column"
      data-agent={agent.id}
    >
      <header className="arena-column-head">
        <strong style={{ color: colour }}>{agent.name}</strong>
        {champions && (
          <span className="small" data-testid="arena-column-idea">
            champions <a href={href('idea', champions.slug)}>“{champions.title}”</a>
          </span>
        )}
        {place && (
          <span className={`badge${place.rank === 1 ? ' ok' : ''}`} title="The judge’s ranking and score (0–10)">
            #{place.rank} of {place.of} · {place.score.toFixed(1)}/10
          </span>
        )}
        {agent.left !== null && (
          <span className="badge warn" title={agent.left}>
            left the arena
          </span>
        )}
        <span className="muted small">
          {agent.versions.length} version{agent.versions.length === 1 ? '' : 's'} · {agent.critiques.length} critique
          {agent.critiques.length === 1 ? '' : 's'} received
        </span>
      </header>
      {agent.left !== null && (
        <p className="arena-left small" role="note" data-testid="arena-column-left">
          <strong>Left the arena</strong>: {agent.left}. What it wrote before stays; it is not asked again, voted on,
          scored or rated, and the critiques of its proposal are no longer open.
        </p>
      )}
      {agent.versions.length === 0 ? (
        <p className="muted small">{agent.left !== null ? 'It left before its proposal.' : 'Writing its proposal…'}</p>
      ) : (
        <ol className="arena-timeline">
          {agent.versions.map((v, i) => (
            <VersionCard
              key={v.round}
              version={v}
              critiques={critiques}
              pinned={i === 0 ? agent.critiques : null}
              nameOf={nameOf}
              latest={i === agent.versions.length - 1 && i > 0}
              left={agent.left !== null}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
