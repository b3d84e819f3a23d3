import { useEffect, useRef } from 'react';
import type { ThreadProgress } from '../../../../core/contract';
import { href } from '../../router';
import { plainWords } from '../../ui/glossary';
import { Help } from '../../ui/help';
import { PlainCode } from '../../ui/plain-code';
import { agendaWords } from './agenda-words';
import type { Column, ColumnItem } from './columns';
import { clip, threadTone } from './format';

/** The newest messages a column draws; the rest is one click away in the transcript. */
const SHOWN = 300;

/** What an agent has written so far of its turn in this thread (from `debate:draft`). */
export interface Draft {
  agent: string;
  move: string | null;
  content: string;
}

interface Props {
  debateId: string;
  column: Column;
  /** Turns being written in this thread right now, shown after its messages until they land. */
  drafts?: readonly Draft[];
  progress: ThreadProgress | undefined;
  agentName: (id: string) => string;
  /** The agent's persona colour (renderer/src/ui/persona-colour.ts). */
  agentColour: (id: string) => string;
}

function Budget({ progress }: { progress: ThreadProgress }) {
  const stage = progress.status as keyof ThreadProgress['budgets'];
  if (!(stage in progress.budgets)) return null;
  const used = progress.messages[stage];
  const budget = progress.budgets[stage];
  return (
    <div className="debate-budget" title={`${used} of ${budget} messages of this stage's budget`}>
      <span className="muted small">
        budget {used}/{budget}
      </span>
      <div className="progress" aria-hidden="true">
        <div style={{ width: `${Math.min(100, (used / Math.max(1, budget)) * 100)}%` }} />
      </div>
    </div>
  );
}

function Item({ debateId, item, props }: { debateId: string; item: ColumnItem; props: Props }) {
  if (item.kind === 'note')
    return (
      <li className={`debate-note ${item.tone}`} title={item.title}>
        {item.text}
        {item.term && <Help term={item.term} />}
      </li>
    );
  const link = href('transcript', 'debate', debateId, { m: item.id });
  if (item.kind === 'moderator') {
    return (
      <li className="debate-msg moderator" id={`msg-${item.id}`}>
        <header>
          <strong>Moderator</strong>
          {item.intervention && (
            <span>
              <span className="badge accent" data-code={item.intervention}>
                {plainWords(item.intervention)}
              </span>
              <Help term={item.intervention} />
            </span>
          )}
          {item.target && <span className="muted small">to {props.agentName(item.target)}</span>}
          <a className="msg-id muted small" href={link} title="Open in the transcript">
            {item.id}
          </a>
        </header>
        <p>{item.content}</p>
      </li>
    );
  }
  const color = props.agentColour(item.agent);
  if (item.kind === 'blocked') {
    return (
      <li className="debate-msg blocked" id={`msg-${item.id}`}>
        <header>
          <strong style={{ color }}>{props.agentName(item.agent)}</strong>
          <span className="badge">{item.move}</span>
          <PlainCode code={item.reason} tone="danger" />
          <a className="msg-id muted small" href={link} title="Open in the transcript">
            {item.id}
          </a>
        </header>
        <p>{item.detail}</p>
      </li>
    );
  }
  return (
    <li className="debate-msg" id={`msg-${item.id}`} style={{ borderLeftColor: color }}>
      <header>
        <strong style={{ color }}>{props.agentName(item.agent)}</strong>
        <span className="badge">{item.move}</span>
        {item.replyTo && (
          <a className="muted small" href={`#msg-${item.replyTo}`} onClick={jumpTo(item.replyTo)}>
            ↩ {item.replyTo}
          </a>
        )}
        <a className="msg-id muted small" href={link} title="Open in the transcript">
          {item.id}
        </a>
      </header>
      <p>{item.content}</p>
      {item.replies.length > 0 && (
        <footer className="muted small">
          replies:{' '}
          {item.replies.map((r) => (
            <a key={r} href={`#msg-${r}`} onClick={jumpTo(r)}>
              {r}{' '}
            </a>
          ))}
        </footer>
      )}
    </li>
  );
}

function DraftItem({ draft, props }: { draft: Draft; props: Props }) {
  const color = props.agentColour(draft.agent);
  return (
    <li className="debate-msg draft" style={{ borderLeftColor: color }} data-testid="draft" aria-live="off">
      <header>
        <strong style={{ color }}>{props.agentName(draft.agent)}</strong>
        {draft.move && <span className="badge">{draft.move}</span>}
        <span className="muted small">writing…</span>
      </header>
      <p>
        {draft.content}
        <span className="draft-caret" aria-hidden="true" />
      </p>
    </li>
  );
}

/** In-page jumps between messages must not touch the hash (it holds the route). */
function jumpTo(id: string) {
  return (e: React.MouseEvent) => {
    e.preventDefault();
    const target = document.getElementById(`msg-${id}`);
    target?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    target?.classList.add('flash');
    setTimeout(() => target?.classList.remove('flash'), 1200);
  };
}

/**
 * One thread of a live debate: its stage, budget and lock attempts on top, its commitments (with
 * falsifiers) and steelman attempts, then its messages as they arrive. A column scrolled to its end
 * stays at the end as messages arrive; one scrolled up stays where the researcher is reading.
 */
export function ThreadColumn(props: Props) {
  const { column, progress, debateId } = props;
  const list = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  const shown = column.items.slice(-SHOWN);
  const hidden = column.items.length - shown.length;

  const drafts = props.drafts ?? [];
  const drafted = drafts.reduce((n, d) => n + d.content.length, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows new items and growing drafts, not their identity
  useEffect(() => {
    const el = list.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [column.items.length, drafted]);

  const status = progress?.status ?? 'DISCOVERY';
  return (
    <section className="debate-column card" aria-label={`Thread ${column.id}`} data-thread={column.id}>
      <header className="debate-column-head">
        <div className="row">
          {/* The thread's id is secondary: the question below says which thread this is. */}
          <span className="muted small" title={`Thread ${column.id}, as the transcript and links name it`}>
            {column.id}
          </span>
          <span>
            <span className={`badge ${threadTone(status)}`} data-testid="stage" data-code={status}>
              {plainWords(status)}
            </span>
            <Help term={status} />
          </span>
          {progress?.awaitingAnalysis && <span className="badge">crystallizing…</span>}
          {progress && (
            <span className="muted small" data-testid="lock-attempts">
              lock attempts {progress.lockAttempts} of {progress.maxLockAttempts}
              <Help term="lock-attempts" />
            </span>
          )}
        </div>
        {column.question ? (
          <strong className="debate-column-question" title={column.question} data-testid="thread-question">
            {clip(column.question)}
          </strong>
        ) : (
          <div className="small muted" title={column.topic} data-testid="thread-question">
            {clip(column.topic)}
          </div>
        )}
        {progress?.agenda && (
          <div
            className="small debate-agenda"
            data-testid="agenda"
            data-source={progress.agenda.source}
            title={progress.agenda.reason}
          >
            <span className="muted">Agenda:</span> {agendaWords(progress.agenda)}
          </div>
        )}
        {progress && <Budget progress={progress} />}
      </header>
      {progress && (progress.commitments.length > 0 || progress.steelmans.length > 0) && (
        <details className="debate-panel" open>
          <summary>
            Commitments ({progress.commitments.length}) · steelmans ({progress.steelmans.length})
          </summary>
          {/* The (?) links sit below the summary: a link inside a summary is a control within a control. */}
          <p className="debate-panel-terms muted small">
            commitment
            <Help term="commitment" /> · steelman
            <Help term="steelman" />
          </p>
          <ul className="debate-commitments small" aria-label={`Commitments in ${column.id}`}>
            {progress.commitments.map((c) => (
              <li key={c.agent}>
                <strong style={{ color: props.agentColour(c.agent) }} data-testid="agent">
                  {props.agentName(c.agent)}
                </strong>{' '}
                <span className={`badge ${c.side === 'YES' ? 'ok' : c.side === 'NO' ? 'danger' : ''}`}>{c.side}</span>
                {c.confidence !== null && <span className="muted"> {Math.round(c.confidence * 100)}%</span>}
                {c.horizon && <span className="muted"> · {c.horizon}</span>}
                {c.falsifier ? (
                  <div title={c.falsifier.reasoning ?? undefined}>
                    wrong if {c.falsifier.metric} {c.falsifier.threshold}{' '}
                    <span className="muted">by {c.falsifier.deadline}</span>
                  </div>
                ) : (
                  c.side !== 'UNCERTAIN' && <div className="muted">no falsifier yet</div>
                )}
              </li>
            ))}
          </ul>
          {progress.steelmans.length > 0 && (
            <table className="data small" aria-label={`Steelmans in ${column.id}`}>
              <thead>
                <tr>
                  <th>steelman from → to</th>
                  <th>grade</th>
                  <th className="num">attempts</th>
                </tr>
              </thead>
              <tbody>
                {progress.steelmans.map((s) => (
                  <tr key={`${s.from}>${s.to}`}>
                    <td>
                      {props.agentName(s.from)} → {props.agentName(s.to)}
                    </td>
                    <td>
                      <span className={`badge ${s.grade === 'ACCURATE' ? 'ok' : s.grade === 'PENDING' ? '' : 'warn'}`}>
                        {s.grade}
                      </span>
                    </td>
                    <td className="num">{s.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </details>
      )}
      <ol
        className="debate-messages"
        ref={list}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
        aria-label={`Messages of ${column.id}`}
        data-testid="messages"
      >
        {hidden > 0 && (
          <li className="debate-note">
            {hidden} earlier lines — <a href={href('transcript', 'debate', debateId)}>read them in the transcript</a>
          </li>
        )}
        {shown.map((item) => (
          <Item key={item.kind === 'note' ? item.key : item.id} debateId={debateId} item={item} props={props} />
        ))}
        {drafts.map((draft) => (
          <DraftItem key={`draft-${draft.agent}`} draft={draft} props={props} />
        ))}
      </ol>
    </section>
  );
}
