import { type FormEvent, memo, useEffect, useMemo, useState } from 'react';
import {
  type ChannelInput,
  EVALUATION_TRANSCRIPT_MOVES,
  TRANSCRIPT_KINDS,
  TRANSCRIPT_MOVES,
  type TranscriptKind,
  type TranscriptSummary,
} from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { ListingNote } from '../../ui/listing-note';
import { useWindow } from '../../ui/use-window';
import { statusBadge, when } from '../debate/format';
import { highlight } from './highlight';
import './transcripts.css';

const FIELDS = ['kind', 'q', 'agent', 'move', 'idea', 'from', 'to'] as const;
type Field = (typeof FIELDS)[number];

const EVALUATION_MOVES: readonly string[] = EVALUATION_TRANSCRIPT_MOVES;
const DEBATE_MOVES = TRANSCRIPT_MOVES.filter((m) => !EVALUATION_MOVES.includes(m));
const EVALUATION_MOVE_WORDS: Record<(typeof EVALUATION_TRANSCRIPT_MOVES)[number], string> = {
  SCORES: 'first scores',
  RED_TEAM: 'red-team challenges',
  DEFENCE: 'defences',
  RULING: 'arbiter’s rulings',
  SYNTHESIS: 'synthesis',
  PROTOCOL: 'protocol notes',
};
const KIND_WORDS: Record<TranscriptKind, string> = {
  debate: 'crux debate',
  evaluation: 'evaluation',
  run: 'other run',
};

const kindOf = (value: string | null): TranscriptKind | undefined =>
  (TRANSCRIPT_KINDS as readonly string[]).includes(value ?? '') ? (value as TranscriptKind) : undefined;

/** Ideas offered under the idea field at once (those holding what is typed). */
const IDEA_HINTS = 30;
const ROW_HEIGHT = 34;
const OVERSCAN = 10;

const TranscriptRow = memo(function TranscriptRow({ t, index }: { t: TranscriptSummary; index: number }) {
  const badge = statusBadge(t.status, t.live, t.kind);
  return (
    <tr aria-rowindex={index + 2} data-kind={t.kind} style={{ height: ROW_HEIGHT }}>
      <td>{KIND_WORDS[t.kind]}</td>
      <td>
        <a href={href('transcript', t.kind, t.id)} title={t.title}>
          {t.title}
        </a>
      </td>
      <td>{t.ideaSlug ? <a href={href('idea', t.ideaSlug)}>{t.ideaSlug}</a> : <span className="muted">—</span>}</td>
      <td>{when(t.createdAt)}</td>
      <td>
        <span className={`badge ${badge.tone}`}>
          {t.status === 'running' && t.kind === 'debate' ? 'running or interrupted' : badge.label}
        </span>
      </td>
      <td className="num">{t.messages ?? <span className="muted">counting…</span>}</td>
    </tr>
  );
});

/**
 * Every transcript as a table whose rows are drawn only where visible: a library of 2,000
 * evaluated ideas has 2,000 rows here, and drawing them all took seconds.
 */
function TranscriptTable({ transcripts }: { transcripts: readonly TranscriptSummary[] }) {
  const { ref, first, last, onScroll } = useWindow<HTMLDivElement>(transcripts.length, ROW_HEIGHT, OVERSCAN);
  return (
    <div ref={ref} className="transcripts-table" data-testid="transcripts" onScroll={onScroll}>
      <table className="data" aria-label="Transcripts" aria-rowcount={transcripts.length + 1}>
        <colgroup>
          <col style={{ width: '8em' }} />
          <col />
          <col style={{ width: '15em' }} />
          <col style={{ width: '13em' }} />
          <col style={{ width: '11em' }} />
          <col style={{ width: '8em' }} />
        </colgroup>
        <thead>
          <tr>
            <th>Kind</th>
            <th>Topic</th>
            <th>Idea</th>
            <th>Started</th>
            <th>Status</th>
            <th className="num">Messages / entries</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_HEIGHT }}>
              <td colSpan={6} />
            </tr>
          )}
          {transcripts.slice(first, last).map((t, k) => (
            <TranscriptRow key={`${t.kind}:${t.id}`} t={t} index={first + k} />
          ))}
          {last < transcripts.length && (
            <tr className="spacer" style={{ height: (transcripts.length - last) * ROW_HEIGHT }}>
              <td colSpan={6} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The search as the address holds it (`#/transcripts?q=…&agent=…`), so Back returns to the results. */
function searchOf(query: URLSearchParams): ChannelInput<'transcripts:search'> | null {
  const get = (f: Field) => query.get(f)?.trim() || undefined;
  const input: ChannelInput<'transcripts:search'> = {
    ...(get('q') ? { text: get('q') } : {}),
    ...(get('agent') ? { agent: get('agent') } : {}),
    ...(get('move') ? { move: get('move') as (typeof TRANSCRIPT_MOVES)[number] } : {}),
    ...(get('idea') ? { ideaSlug: get('idea') } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
  };
  // The kind alone filters the list below; with anything else it narrows the search too.
  const kind = kindOf(get('kind') ?? null);
  return Object.keys(input).length > 0 ? { ...input, ...(kind ? { kind } : {}), limit: 300 } : null;
}

/**
 * `#/transcripts`: every past debate's and evaluation's transcript (`?kind=` shows one kind), and a
 * search across them by words, agent, move (or kind of entry), idea and days; each hit opens the
 * transcript at its message or entry.
 */
export function TranscriptsView({ route }: { route: Route }) {
  const list = useChannel('transcripts:list', {});
  usePush('run:status', () => list.reload());
  // Records read, or entries counted, in the background since (the first look at a workspace).
  usePush('evaluation:listed', () => list.reload());
  const shownKind = kindOf(route.query.get('kind'));
  const transcripts = useMemo(
    () => (list.data?.transcripts ?? []).filter((t) => shownKind === undefined || t.kind === shownKind),
    [list.data, shownKind],
  );
  const counting = useMemo(
    () => (list.data?.transcripts ?? []).reduce((n, t) => n + (t.messages === null ? 1 : 0), 0),
    [list.data],
  );
  const search = useMemo(() => searchOf(route.query), [route.query]);
  const results = useChannel('transcripts:search', search);
  const words = (search?.text ?? '').toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const [form, setForm] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, route.query.get(f) ?? ''])) as Record<Field, string>,
  );
  // The kind links above the list change the address; the form follows them.
  const addressKind = route.query.get('kind') ?? '';
  useEffect(() => setForm((old) => (old.kind === addressKind ? old : { ...old, kind: addressKind })), [addressKind]);
  const ideas = useMemo(
    () => [...new Set((list.data?.transcripts ?? []).flatMap((t) => (t.ideaSlug ? [t.ideaSlug] : [])))].sort(),
    [list.data],
  );
  // The idea is typed, with the first ideas that hold those letters offered: a list of every idea
  // with a transcript was 10,000 options to draw at each look at the page.
  const ideaHints = useMemo(() => {
    const typed = form.idea.trim().toLowerCase();
    const out: string[] = [];
    for (const slug of ideas) {
      if (out.length >= IDEA_HINTS) break;
      if (slug !== typed && slug.includes(typed)) out.push(slug);
    }
    return out;
  }, [ideas, form.idea]);
  const set = (f: Field) => (e: { target: { value: string } }) => setForm((old) => ({ ...old, [f]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = Object.fromEntries(FIELDS.map((f) => [f, form[f].trim() || undefined]));
    navigate(href('transcripts', query));
  };

  return (
    <section className="view transcripts-view">
      <h1>Transcripts</h1>
      <form className="transcript-search card" aria-label="Search transcripts" onSubmit={submit}>
        <input
          type="search"
          aria-label="Words"
          placeholder="Words in the messages"
          value={form.q}
          onChange={set('q')}
        />
        <input
          aria-label="Agent"
          placeholder="Agent"
          value={form.agent}
          onChange={set('agent')}
          style={{ width: '10em' }}
        />
        <select aria-label="Kind" value={form.kind} onChange={set('kind')}>
          <option value="">debates and evaluations</option>
          {TRANSCRIPT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}s only
            </option>
          ))}
        </select>
        <select aria-label="Move" value={form.move} onChange={set('move')}>
          <option value="">any move or entry</option>
          {form.kind !== 'evaluation' && (
            <optgroup label="Debate moves">
              {DEBATE_MOVES.map((m) => (
                <option key={m} value={m}>
                  {m === 'MODERATOR' ? 'moderator' : m}
                </option>
              ))}
            </optgroup>
          )}
          {form.kind !== 'debate' && (
            <optgroup label="Evaluation entries">
              {EVALUATION_TRANSCRIPT_MOVES.map((m) => (
                <option key={m} value={m}>
                  {EVALUATION_MOVE_WORDS[m]}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <input
          aria-label="Idea"
          placeholder="Any idea"
          list="transcript-idea-hints"
          value={form.idea}
          onChange={set('idea')}
          style={{ width: '14em' }}
        />
        <datalist id="transcript-idea-hints">
          {ideaHints.map((i) => (
            <option key={i} value={i} />
          ))}
        </datalist>
        <label>
          from <input type="date" aria-label="From" value={form.from} onChange={set('from')} />
        </label>
        <label>
          to <input type="date" aria-label="To" value={form.to} onChange={set('to')} />
        </label>
        <button type="submit" className="primary">
          Search
        </button>
        {search && (
          <button
            type="button"
            onClick={() => {
              setForm(Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>);
              navigate(href('transcripts'));
            }}
          >
            Clear
          </button>
        )}
      </form>
      <ErrorNotice error={results.error} />
      {search && results.data && (
        <section aria-label="Search results" className="transcript-hits">
          <h2>
            {results.data.total === 0
              ? 'No message matches.'
              : `${results.data.total} message${results.data.total === 1 ? '' : 's'}${results.data.truncated ? `, the first ${results.data.hits.length} shown` : ''}`}
          </h2>
          <ol>
            {results.data.hits.map((hit) => (
              <li key={`${hit.id}:${hit.index}`}>
                <a
                  href={href('transcript', hit.kind, hit.id, { m: hit.kind === 'debate' ? hit.messageId : hit.index })}
                  className="hit-link"
                >
                  {hit.agentName ?? (hit.kind === 'evaluation' ? 'Protocol' : 'Moderator')} ·{' '}
                  {hit.move === 'MODERATOR'
                    ? 'moderator'
                    : hit.kind === 'evaluation'
                      ? (EVALUATION_MOVE_WORDS[hit.move as keyof typeof EVALUATION_MOVE_WORDS] ?? hit.move)
                      : hit.move}{' '}
                  · {hit.messageId}
                </a>
                <span className="muted small">
                  {' '}
                  in {hit.title} · {when(hit.at)}
                </span>
                <div className="hit-snippet">{highlight(hit.snippet, words)}</div>
              </li>
            ))}
          </ol>
        </section>
      )}
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2>Every transcript</h2>
        <nav className="row small" aria-label="Which transcripts">
          {([undefined, ...TRANSCRIPT_KINDS] as const).map((k) => (
            <a
              key={k ?? 'all'}
              href={href('transcripts', { ...Object.fromEntries(route.query), kind: k })}
              aria-current={shownKind === k ? 'page' : undefined}
              className={shownKind === k ? 'badge accent' : 'badge'}
            >
              {k === undefined ? 'all' : `${KIND_WORDS[k]}s`}
            </a>
          ))}
        </nav>
      </div>
      <ErrorNotice error={list.error} />
      <ListingNote reading={list.data?.reading ?? 0} counting={counting} />
      {list.data && transcripts.length === 0 && (
        <p className="muted">
          {shownKind === 'evaluation'
            ? 'No evaluation has run yet.'
            : shownKind === 'debate'
              ? 'No debate has run yet.'
              : 'No debate or evaluation has run yet.'}
        </p>
      )}
      {list.data && transcripts.length > 0 && <TranscriptTable transcripts={transcripts} />}
    </section>
  );
}
