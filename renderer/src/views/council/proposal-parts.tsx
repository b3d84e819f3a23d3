import type { CouncilProposalView, CouncilVersionView } from '../../../../core/contract';
import { Help } from '../../ui/help';
import {
  type Agent,
  actionTarget,
  councilColour,
  LADDER_WORDS,
  STAKES_TONE,
  STATUS_WORDS,
  statusTone,
  TOOL_WORDS,
  VOTE_WORDS,
  voteTone,
} from './words';

// The pieces the council view and the approvals inbox both show of a proposal: its status, stakes,
// flags and ladder level (each with its (?)), a version's content, and the votes with rationales.

export function AgentName({ agent }: { agent: Agent | 'researcher' }) {
  return (
    <strong className="council-agent" style={agent === 'researcher' ? undefined : { color: councilColour(agent) }}>
      {agent}
      {agent !== 'researcher' && <Help term={agent} />}
    </strong>
  );
}

export function StatusBadge({ status }: { status: CouncilProposalView['status'] }) {
  return (
    <span className="nowrap">
      <span className={`badge ${statusTone(status)}`} data-testid="proposal-status" data-status={status}>
        {STATUS_WORDS[status]}
      </span>
      <Help term={status} />
    </span>
  );
}

export function StakesBadge({ stakes }: { stakes: 'low' | 'medium' | 'high' }) {
  return (
    <span className="nowrap">
      <span className={`badge ${STAKES_TONE[stakes]}`} data-testid="stakes">
        {stakes} stakes
      </span>
      <Help term="stakes" />
    </span>
  );
}

export function Flags({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) return <span className="muted small">no gaming flag</span>;
  return (
    <span className="row council-flags" data-testid="flags">
      {flags.map((f) => (
        <span key={f} className="nowrap">
          <span className="badge warn">{f}</span>
          <Help term={f} />
        </span>
      ))}
    </span>
  );
}

export function LadderLevel({ ladder }: { ladder: number }) {
  return (
    <span className="nowrap" data-testid="ladder">
      ladder {ladder} of 4 — {LADDER_WORDS[ladder] ?? ''}
      <Help term="ladder" />
    </span>
  );
}

/** What a version proposes: goal, actions, why in value terms, what should follow, the risks. */
export function VersionBody({ version, goal = true }: { version: CouncilVersionView; goal?: boolean }) {
  const o = version.output;
  return (
    <div className="council-version-body">
      {goal && <p className="council-goal">{o.goal}</p>}
      <div className="council-grid">
        <div>
          <h4>Actions</h4>
          <ol className="council-list">
            {o.actions.map((a, i) => {
              const args = a.args as Record<string, unknown>;
              const content =
                typeof args.content === 'string' ? args.content : typeof args.text === 'string' ? args.text : null;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: actions are numbered by position
                <li key={i}>
                  <code>{a.tool}</code> <span className="muted">({TOOL_WORDS[a.tool] ?? a.tool})</span>{' '}
                  <span className="council-path">{actionTarget(args)}</span>
                  {content !== null && (
                    <details>
                      <summary className="small">the text it writes</summary>
                      <pre className="council-pre">{content}</pre>
                    </details>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
        <div>
          <h4>
            Why, in value terms <Help term="value-weights" />
          </h4>
          <ul className="council-list">
            {Object.entries(o.valueJustification).map(([value, j]) => (
              <li key={value}>
                <strong>{value}</strong> <span className="muted small">strength {j?.strength.toFixed(2)}</span> —{' '}
                {j?.text}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h4>Expected outcomes</h4>
          {o.expectedOutcomes.length === 0 ? (
            <p className="muted small">none named</p>
          ) : (
            <ul className="council-list">
              {o.expectedOutcomes.map((x) => (
                <li key={x}>{x}</li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h4>Risks</h4>
          {o.risks.length === 0 ? (
            <p className="muted small">none named</p>
          ) : (
            <ul className="council-list">
              {o.risks.map((r) => (
                <li key={r.risk}>
                  <span className={`badge ${r.severity === 'high' ? 'danger' : r.severity === 'medium' ? 'warn' : ''}`}>
                    {r.severity}
                  </span>{' '}
                  {r.risk}
                  {r.mitigation && <span className="muted"> — mitigation: {r.mitigation}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}

/** The round's votes: the author's own approval, each review with its rationale, what is still due. */
export function Votes({ version }: { version: CouncilVersionView }) {
  return (
    <ul className="council-votes" aria-label={`Votes on version ${version.n}`}>
      <li>
        <AgentName agent={version.author} /> <span className="badge ok">approves</span>{' '}
        <span className="muted small">(its own {version.kind})</span>
      </li>
      {version.reviews.map(({ agent, review }) => (
        <li key={agent} data-testid="vote">
          <AgentName agent={agent} />{' '}
          <span className={`badge ${voteTone(review.decision)}`}>{VOTE_WORDS[review.decision]}</span>
          <p className="council-rationale">{review.rationale}</p>
          {review.concerns.length > 0 && (
            <ul className="council-concerns">
              {review.concerns.map((c) => (
                <li key={c}>concern: {c}</li>
              ))}
            </ul>
          )}
          {Object.keys(review.values).length > 0 && (
            <p className="muted small">
              invokes{' '}
              {Object.entries(review.values)
                .map(([v, s]) => `${v} ${Number(s).toFixed(2)}`)
                .join(', ')}
            </p>
          )}
        </li>
      ))}
      {version.pendingReviewers.map((agent) => (
        <li key={agent} className="muted">
          <AgentName agent={agent} /> has not voted yet
        </li>
      ))}
    </ul>
  );
}

export function TiebreakFigures({ p }: { p: CouncilProposalView }) {
  if (!p.tiebreak) return null;
  const advice = p.stakes !== 'low' || p.ladder === 4;
  return (
    <p className="small" data-testid="tiebreak">
      Tiebreak <Help term="tiebreak" />: the proposal’s side {p.tiebreak.proposal.toFixed(3)} against the objection’s{' '}
      {p.tiebreak.objection.toFixed(3)}
      {advice ? ' (advice only: the decision is yours)' : ''}.
    </p>
  );
}

/** A proposal's versions before its last, folded away: what each said and how it was voted on. */
export function EarlierVersions({ versions, lead }: { versions: readonly CouncilVersionView[]; lead?: string }) {
  if (versions.length === 0) return null;
  return (
    <details>
      <summary>
        Earlier versions ({versions.length}){lead ? `: ${lead}` : ''}
      </summary>
      {/* The (?) is a link: inside the summary it would be a control within a control, which a
          screen reader cannot reach on its own, so it opens the unfolded part. */}
      <p className="muted small">
        Oldest first, each with its votes; how far the agents had to go to agree is the conflict ladder{' '}
        <Help term="ladder" />.
      </p>
      {versions.map((v) => (
        <div key={v.n} className="approval-earlier">
          <h4>
            Version {v.n}: {v.kind} by {v.author}
          </h4>
          <VersionBody version={v} />
          <Votes version={v} />
        </div>
      ))}
    </details>
  );
}
