import type { CruxMap, CruxNode } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { personaColours } from '../../ui/persona-colour';
import { PlainCode } from '../../ui/plain-code';
import { reviewWords } from './history-words';
import { agentNodeId } from './map-elements';
import { validationFailureWords } from '../debate/lock-words';

interface Props {
  map: CruxMap;
  selected: string;
  onSelect: (id: string | null) => void;
}

function sideTone(side: string): string {
  return side === 'YES' ? 'ok' : side === 'NO' ? 'danger' : '';
}

function CruxDetail({ map, crux, onSelect }: { map: CruxMap; crux: CruxNode; onSelect: Props['onSelect'] }) {
  const name = (id: string) => map.agents.find((a) => a.id === id)?.name ?? id;
  const related = map.edges.filter((e) => e.from === crux.id || e.to === crux.id);
  const question = (id: string) => map.cruxes.find((c) => c.id === id)?.question ?? id;
  return (
    <>
      <h2>{crux.question}</h2>
      <div className="row small">
        {crux.primary && <span className="badge accent">primary</span>}
        {crux.kind === 'candidate' && <span className="badge">deeper crux (proposed)</span>}
        {/* Not the green of YES: a validated crux says so in words; not validated is amber. */}
        {crux.crystallized && (
          <span className={`badge ${crux.validated ? '' : 'warn'}`}>
            {crux.validated ? '✓ validated' : 'not validated'}
          </span>
        )}
        <span className="muted" title={`Thread ${crux.thread}, as the transcript and links name it`}>
          {crux.thread}
        </span>
        <PlainCode code={crux.threadStatus} testId="thread-status" />
        {crux.dcg !== null && (
          <span data-testid="crux-dcg" title="Disagreement compression gain, from 0 to 1">
            how much of the disagreement it captures (DCG, 0–1): <strong>{crux.dcg.toFixed(2)}</strong>
            <Help term="dcg" />
          </span>
        )}
        {crux.dominantHorizon && (
          <span className="muted">
            horizon {crux.dominantHorizon}
            <Help term="horizon" />
          </span>
        )}
      </div>
      {crux.validationFailures.length > 0 && (
        <p
          className="small muted"
          title={`not validated: ${crux.validationFailures.join(', ')}`}
          data-testid="validation-failures"
        >
          Not validated: {validationFailureWords(crux.validationFailures, name).join('; ')}
        </p>
      )}
      {crux.history.length > 0 && (
        <>
          <h3>History</h3>
          <ol className="small" data-testid="crux-history">
            {crux.history.map((review) => {
              const words = reviewWords(review, name);
              return (
                <li key={review.challenge.messageId}>
                  {words.challenge}: {words.answer}.<div className="muted">{words.before}</div>
                </li>
              );
            })}
          </ol>
        </>
      )}
      <h3>Positions</h3>
      {crux.positions.length === 0 ? (
        <p className="muted small">Nobody has taken a side yet.</p>
      ) : (
        <table className="data small" data-testid="positions">
          <tbody>
            {crux.positions.map((p) => (
              <tr key={p.agent}>
                <td>
                  <button type="button" className="link" onClick={() => onSelect(agentNodeId(p.agent))}>
                    {name(p.agent)}
                  </button>
                </td>
                <td>
                  <span className={`badge ${sideTone(p.side)}`}>{p.side}</span>
                  {p.confidence !== null && <span className="muted"> {Math.round(p.confidence * 100)}%</span>}
                  {p.wouldFlip !== null && (
                    <div className="muted">{p.wouldFlip ? 'would change its mind' : 'would not change its mind'}</div>
                  )}
                </td>
                <td>{p.statement}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Falsifiers</h3>
      {crux.positions.some((p) => p.falsifier) ? (
        <ul className="small" data-testid="falsifiers">
          {crux.positions.flatMap((p) =>
            p.falsifier
              ? [
                  <li key={p.agent}>
                    <strong>{name(p.agent)}</strong> is wrong if {p.falsifier.metric} {p.falsifier.threshold}{' '}
                    <span className="muted">by {p.falsifier.deadline}</span>
                    {p.falsifier.reasoning && <div className="muted">{p.falsifier.reasoning}</div>}
                  </li>,
                ]
              : [],
          )}
        </ul>
      ) : (
        <p className="muted small">No falsifier declared.</p>
      )}
      <h3>Resolution criteria</h3>
      {crux.resolutionCriteria.length > 0 ? (
        <ul className="small">
          {crux.resolutionCriteria.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      ) : (
        <p className="muted small">None yet (they come with crystallization).</p>
      )}
      {related.length > 0 && (
        <>
          <h3>Links</h3>
          <ul className="small">
            {related.map((e) => {
              const other = e.from === crux.id ? e.to : e.from;
              const words = e.kind === 'contradiction' ? 'contradicts' : e.from === crux.id ? 'underlies' : 'rests on';
              return (
                <li key={`${e.kind}:${e.from}>${e.to}`}>
                  {words}{' '}
                  <button type="button" className="link" onClick={() => onSelect(other)}>
                    {question(other)}
                  </button>{' '}
                  <span className="muted">({e.reason})</span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <h3>Supporting messages</h3>
      {crux.supporting.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <ol className="crux-support small" data-testid="supporting">
          {crux.supporting.map((s) => (
            <li key={s.messageId}>
              <a href={href('transcript', 'debate', map.debateId, { m: s.messageId })}>
                {s.messageId} · {s.agent ? name(s.agent) : 'moderator'} · {s.move}
              </a>
              <div className="muted">{s.excerpt}</div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** The side panel: what a clicked crux or agent stands for. */
export function NodeDetail({ map, selected, onSelect }: Props) {
  const crux = map.cruxes.find((c) => c.id === selected);
  const agent = map.agents.find((a) => agentNodeId(a.id) === selected);
  return (
    <aside className="crux-detail card" aria-label="Selected node" data-testid="crux-detail">
      <button type="button" className="link crux-detail-close" onClick={() => onSelect(null)} aria-label="Close">
        ×
      </button>
      {crux && <CruxDetail map={map} crux={crux} onSelect={onSelect} />}
      {agent && (
        <>
          <h2 style={{ color: personaColours(map.agents.map((a) => a.persona ?? a.id))(agent.persona ?? agent.id) }}>
            {agent.name}
          </h2>
          <p className="small">
            {agent.coalition === null
              ? 'In no coalition.'
              : `In ${map.coalitions[agent.coalition]?.label ?? 'a coalition'}.`}
          </p>
          <h3>Sides</h3>
          <ul className="small">
            {map.cruxes.flatMap((c) => {
              const p = c.positions.find((x) => x.agent === agent.id);
              return p
                ? [
                    <li key={c.id}>
                      <span className={`badge ${sideTone(p.side)}`}>{p.side}</span>{' '}
                      <button type="button" className="link" onClick={() => onSelect(c.id)}>
                        {c.question}
                      </button>
                    </li>,
                  ]
                : [];
            })}
          </ul>
        </>
      )}
    </aside>
  );
}
