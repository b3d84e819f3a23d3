import type { CruxResultView } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { conformityWords, dcgWords, leadingThread, percent, regimeWords } from './outcome-words';

interface Props {
  debateId: string;
  result: CruxResultView;
  agentName: (id: string) => string;
  agentColour: (id: string) => string;
  debaters: number;
}

const SIDE_WORDS = { YES: 'yes', NO: 'no', UNCERTAIN: 'unsure' } as const;

/**
 * What a finished debate found, on top of its columns: the crux it came down to in plain words,
 * who stands where and how sure, what would prove each of them wrong and by when, the DCG as a
 * sentence, and the ways on to the crux map, the ledger and the charts.
 */
export function OutcomeCard({ debateId, result, agentName, agentColour, debaters }: Props) {
  const lead = leadingThread(result);
  const crux = lead?.thread.crux ?? null;
  const others = result.irreducibleCruxes.filter((t) => t !== lead?.thread.id);
  const moved = conformityWords(result);
  return (
    <section className="card stack outcome-card" aria-labelledby="outcome-title" data-testid="outcome">
      <h2 id="outcome-title">What the debate found</h2>
      <p className="outcome-line" data-testid="regime">
        {regimeWords(result)}
      </p>
      {moved && (
        <p
          className={`outcome-line small${result.conformity?.label ? ' conformity-warning' : ''}`}
          data-testid="conformity"
        >
          {moved}
        </p>
      )}
      {lead && crux ? (
        <>
          <div>
            <div className="muted small">
              {lead.primary ? 'The crux it comes down to' : 'The strongest crux (it did not pass validation)'}
              <Help term={lead.primary ? 'primary-crux' : 'crux'} />
            </div>
            <p className="outcome-line outcome-question" data-testid="primary-crux">
              {crux.question}
            </p>
          </div>
          <table className="data small" aria-label="Who stands where">
            <thead>
              <tr>
                <th>Debater</th>
                <th>Answer</th>
                <th className="num">
                  Confidence (0–100%)
                  <Help term="confidence" />
                </th>
                <th>
                  Wrong if… (the falsifier)
                  <Help term="falsifier" />
                </th>
                <th>By (deadline)</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(crux.positions).map(([agent, p]) => (
                <tr key={agent}>
                  <td>
                    <strong style={{ color: agentColour(agent) }}>{agentName(agent)}</strong>
                    <div className="muted">{p.statement}</div>
                  </td>
                  <td>
                    <span className={`badge ${p.side === 'YES' ? 'ok' : p.side === 'NO' ? 'danger' : ''}`}>
                      {SIDE_WORDS[p.side]}
                    </span>
                  </td>
                  <td className="num">{percent(p.confidence)}</td>
                  <td>{p.falsifier ? `${p.falsifier.metric} ${p.falsifier.threshold}` : '—'}</td>
                  <td>{p.falsifier?.deadline ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="outcome-line small" data-testid="dcg-words">
            {dcgWords(crux, debaters)}
            <Help term="dcg" />
          </p>
        </>
      ) : (
        <p className="outcome-line muted">No crux crystallized, so there is no question to settle it by.</p>
      )}
      {others.length > 0 && (
        <p className="outcome-line small">
          {others.length === 1 ? 'One more crux' : `${others.length} more cruxes`} also split them:{' '}
          {others
            .map((t) => result.threads.find((x) => x.id === t)?.crux?.question ?? t)
            .map((q) => `“${q}”`)
            .join('; ')}
          .
        </p>
      )}
      <div className="row small">
        <a href={href('crux-map', debateId)}>Crux map</a>
        <a href={href('ledger')}>Falsifier ledger</a>
        <a href={href('convergence', 'debate', debateId)}>Charts of DCG and positions</a>
        <a href={href('transcript', 'debate', debateId)}>Transcript</a>
      </div>
    </section>
  );
}
