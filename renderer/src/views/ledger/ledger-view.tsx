import { Fragment, useMemo, useState } from 'react';
import {
  type FalsifierOutcome,
  LEDGER_STATUSES,
  type LedgerCrux,
  type LedgerFalsifier,
  type LedgerStatus,
} from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import type { Route } from '../../router';
import { href } from '../../router';
import { downloadText, toCsv } from '../../ui/csv';
import { ErrorNotice } from '../../ui/error-notice';
import { ResolveForm } from './resolve-form';
import './ledger.css';

const STATUS_ORDER: Record<LedgerStatus, number> = { overdue: 0, open: 1, undated: 2, resolved: 3 };
const STATUS_TONE: Record<LedgerStatus, string> = { overdue: 'danger', open: 'accent', undated: '', resolved: 'ok' };
const OUTCOME_TONE: Record<FalsifierOutcome, string> = {
  falsified: 'danger',
  survived: 'ok',
  ambiguous: 'warn',
  void: '',
};

function byUrgency(
  a: { status: LedgerStatus; deadline: string | null },
  b: { status: LedgerStatus; deadline: string | null },
) {
  return STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (a.deadline ?? '9999').localeCompare(b.deadline ?? '9999');
}

function matches(words: string[], ...fields: (string | null)[]): boolean {
  const text = fields.join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

/**
 * `#/ledger`: every crux and falsifier of every debate, with deadlines; overdue ones first and
 * marked; a form to record how a falsifier resolved, written to the researcher's ledger.md.
 * `?status=overdue` opens it filtered.
 */
export function LedgerView({ route }: { route: Route }) {
  const ledger = useChannel('ledger:list', {});
  usePush('run:status', (p) => {
    if (p.protocol === 'crux') ledger.reload();
  });
  const [tab, setTab] = useState<'falsifiers' | 'cruxes'>('falsifiers');
  const [text, setText] = useState('');
  const [idea, setIdea] = useState('');
  const [status, setStatus] = useState<LedgerStatus | ''>(() => {
    const asked = route.query.get('status');
    return (LEDGER_STATUSES as readonly string[]).includes(asked ?? '') ? (asked as LedgerStatus) : '';
  });
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const data = ledger.data;
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const ideas = useMemo(
    () =>
      [
        ...new Set(
          (data?.cruxes ?? [])
            .map((c) => c.ideaSlug ?? '')
            .concat((data?.falsifiers ?? []).map((f) => f.ideaSlug ?? '')),
        ),
      ].sort(),
    [data],
  );
  const keep = (row: LedgerFalsifier | LedgerCrux) =>
    (idea === '' || (row.ideaSlug ?? '') === idea) && (status === '' || row.status === status);
  const falsifiers = (data?.falsifiers ?? [])
    .filter(
      (f) =>
        keep(f) &&
        matches(
          words,
          f.question,
          f.metric,
          f.threshold,
          f.deadline,
          f.agentName,
          f.debateTopic,
          f.resolution?.note ?? null,
        ),
    )
    .sort((a, b) =>
      byUrgency({ status: a.status, deadline: a.deadlineDate }, { status: b.status, deadline: b.deadlineDate }),
    );
  const cruxes = (data?.cruxes ?? [])
    .filter((c) => keep(c) && matches(words, c.question, c.debateTopic))
    .sort((a, b) =>
      byUrgency({ status: a.status, deadline: a.nextDeadline }, { status: b.status, deadline: b.nextDeadline }),
    );
  const overdue = (data?.falsifiers ?? []).filter((f) => f.status === 'overdue').length;

  const commands = useMemo<Command[]>(
    () => [
      { id: 'ledger:overdue', title: 'Show overdue falsifiers', group: 'Ledger', run: () => setStatus('overdue') },
      { id: 'ledger:all', title: 'Show every falsifier', group: 'Ledger', run: () => setStatus('') },
    ],
    [],
  );
  useCommands('ledger-view', commands);

  const exportCsv = () =>
    downloadText(
      'falsifier-ledger.csv',
      toCsv(
        [
          'status',
          'deadline',
          'agent',
          'side',
          'metric',
          'threshold',
          'crux',
          'idea',
          'debate',
          'outcome',
          'resolved',
          'note',
        ],
        falsifiers.map((f) => [
          f.status,
          f.deadlineDate ?? f.deadline,
          f.agentName,
          f.side,
          f.metric,
          f.threshold,
          f.question,
          f.ideaSlug,
          f.debateId,
          f.resolution?.outcome,
          f.resolution?.resolvedOn,
          f.resolution?.note,
        ]),
      ),
    );

  return (
    <section className="view ledger-view">
      <h1>Crux ledger</h1>
      <p className="muted small">
        Every crux and falsifier across your debates. What you record is kept in{' '}
        <code>{data?.file ?? 'ledger.md'}</code> at the top of your workspace, a file you can also edit by hand.
        {data && ` Today is ${data.today}.`} How the cruxes of all debates relate (duplicates, dependencies, what to
        debate next): the <a href={href('crux-map')}>crux map of the workspace</a>.
      </p>
      <ErrorNotice error={ledger.error} />
      {notice && <div className="error-notice">{notice}</div>}
      {data && data.problems.length > 0 && (
        <div className="card ledger-problems" role="alert">
          <strong>Some entries of {data.file} could not be read; they are left out until fixed:</strong>
          <ul className="small">
            {data.problems.map((p) => (
              <li key={`${p.line}:${p.reason}`}>
                line {p.line}: {p.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="row ledger-filters">
        <div className="row" role="tablist" aria-label="Ledger">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'falsifiers'}
            className={tab === 'falsifiers' ? 'primary' : ''}
            onClick={() => setTab('falsifiers')}
          >
            Falsifiers ({data?.falsifiers.length ?? 0})
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'cruxes'}
            className={tab === 'cruxes' ? 'primary' : ''}
            onClick={() => setTab('cruxes')}
          >
            Cruxes ({data?.cruxes.length ?? 0})
          </button>
        </div>
        <input
          type="search"
          placeholder="Filter by words"
          aria-label="Filter by words"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <select aria-label="Idea" value={idea} onChange={(e) => setIdea(e.target.value)}>
          <option value="">every idea</option>
          {ideas.map((i) => (
            <option key={i} value={i}>
              {i === '' ? '(no idea: a free topic)' : i}
            </option>
          ))}
        </select>
        <select aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as LedgerStatus | '')}>
          <option value="">any status</option>
          <option value="overdue">overdue</option>
          <option value="open">open</option>
          <option value="undated">no readable deadline</option>
          <option value="resolved">resolved</option>
        </select>
        {overdue > 0 && <span className="badge danger">{overdue} overdue</span>}
        {tab === 'falsifiers' && (
          <button type="button" onClick={exportCsv} disabled={falsifiers.length === 0}>
            Export CSV
          </button>
        )}
      </div>

      {tab === 'falsifiers' && data && (
        <table className="data ledger-table" aria-label="Falsifiers">
          <thead>
            <tr>
              <th>Deadline</th>
              <th>Status</th>
              <th>Who is wrong if…</th>
              <th>Crux</th>
              <th>Idea · debate</th>
              <th>Resolution</th>
            </tr>
          </thead>
          <tbody>
            {falsifiers.map((f) => (
              <Fragment key={f.key}>
                <tr className={f.status === 'overdue' ? 'overdue' : ''} data-key={f.key}>
                  <td>
                    {f.deadlineDate ?? <span className="muted">—</span>}
                    {f.deadlineDate !== f.deadline && <div className="muted small">{f.deadline}</div>}
                  </td>
                  <td>
                    <span className={`badge ${STATUS_TONE[f.status]}`}>
                      {f.status === 'undated' ? 'no date' : f.status}
                    </span>
                  </td>
                  <td>
                    <strong>{f.agentName}</strong>
                    {f.side && <span className="muted"> ({f.side})</span>}: {f.metric} {f.threshold}
                    {f.index !== null && (
                      <div className="small">
                        <a href={href('transcript', 'debate', f.debateId, { m: f.messageId ?? f.index })}>
                          declared in {f.messageId}
                        </a>
                      </div>
                    )}
                  </td>
                  <td className="small">
                    {f.question ? (
                      <a href={href('crux-map', f.debateId, { node: `crux:${f.thread}` })}>{f.question}</a>
                    ) : (
                      <span className="muted">{f.thread}: no question</span>
                    )}
                  </td>
                  <td className="small">
                    {f.ideaSlug ? (
                      <a href={href('idea', f.ideaSlug)}>{f.ideaSlug}</a>
                    ) : (
                      <span className="muted">free topic</span>
                    )}
                    <div>
                      <a href={href('debate', f.debateId)}>{f.debateCreatedAt.slice(0, 10)}</a>
                    </div>
                  </td>
                  <td className="small">
                    {f.resolution && (
                      <div>
                        <span className={`badge ${OUTCOME_TONE[f.resolution.outcome]}`}>{f.resolution.outcome}</span>{' '}
                        {f.resolution.resolvedOn}
                        {f.resolution.note && <div className="ledger-note">{f.resolution.note}</div>}
                      </div>
                    )}
                    {editing !== f.key && (
                      <button type="button" className="link" onClick={() => setEditing(f.key)}>
                        {f.resolution ? 'Correct' : 'Record how it resolved'}
                      </button>
                    )}
                  </td>
                </tr>
                {editing === f.key && (
                  <tr className="ledger-form-row">
                    <td colSpan={6}>
                      <ResolveForm
                        falsifier={f}
                        today={data.today}
                        onCancel={() => setEditing(null)}
                        onDone={(message) => {
                          setEditing(null);
                          setNotice(message);
                          ledger.reload();
                        }}
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {tab === 'falsifiers' && data && falsifiers.length === 0 && (
        <p className="muted">
          {data.falsifiers.length === 0 ? 'No debate has declared a falsifier yet.' : 'Nothing matches the filters.'}
        </p>
      )}

      {tab === 'cruxes' && data && (
        <table className="data ledger-table" aria-label="Cruxes">
          <thead>
            <tr>
              <th>Next deadline</th>
              <th>Status</th>
              <th>Crux</th>
              <th className="num">DCG</th>
              <th className="num">Falsifiers</th>
              <th>Idea · debate</th>
            </tr>
          </thead>
          <tbody>
            {cruxes.map((c) => (
              <tr key={c.key} className={c.status === 'overdue' ? 'overdue' : ''}>
                <td>{c.nextDeadline ?? <span className="muted">—</span>}</td>
                <td>
                  <span className={`badge ${STATUS_TONE[c.status]}`}>
                    {c.status === 'undated' ? 'no date' : c.status}
                  </span>
                </td>
                <td>
                  <a href={href('crux-map', c.debateId, { node: `crux:${c.thread}` })}>{c.question}</a>
                  <div className="row small">
                    {c.primary && <span className="badge accent">primary</span>}
                    {c.crystallized && (
                      <span className={`badge ${c.validated ? 'ok' : 'warn'}`}>
                        {c.validated ? 'validated' : 'not validated'}
                      </span>
                    )}
                    <span className="muted">{c.threadStatus}</span>
                  </div>
                </td>
                <td className="num">{c.dcg === null ? '—' : c.dcg.toFixed(2)}</td>
                <td className="num">
                  {c.resolved}/{c.falsifiers}
                </td>
                <td className="small">
                  {c.ideaSlug ? (
                    <a href={href('idea', c.ideaSlug)}>{c.ideaSlug}</a>
                  ) : (
                    <span className="muted">free topic</span>
                  )}
                  <div>
                    <a href={href('debate', c.debateId)}>{c.debateCreatedAt.slice(0, 10)}</a>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {tab === 'cruxes' && data && cruxes.length === 0 && <p className="muted">No crux matches.</p>}
    </section>
  );
}
