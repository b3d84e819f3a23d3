import { type FormEvent, useMemo, useState } from 'react';
import { type ChannelInput, TRANSCRIPT_MOVES } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { statusBadge, when } from '../debate/format';
import { highlight } from './highlight';
import './transcripts.css';

const FIELDS = ['q', 'agent', 'move', 'idea', 'from', 'to'] as const;
type Field = (typeof FIELDS)[number];

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
  return Object.keys(input).length > 0 ? { ...input, limit: 300 } : null;
}

/**
 * `#/transcripts`: every past debate's transcript, and a search across all of them by words,
 * agent, move, idea and days; each hit opens the transcript at its message.
 */
export function TranscriptsView({ route }: { route: Route }) {
  const list = useChannel('transcripts:list', {});
  usePush('debate:status', () => list.reload());
  const search = useMemo(() => searchOf(route.query), [route.query]);
  const results = useChannel('transcripts:search', search);
  const words = (search?.text ?? '').toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const [form, setForm] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, route.query.get(f) ?? ''])) as Record<Field, string>,
  );
  const ideas = [...new Set((list.data?.transcripts ?? []).flatMap((t) => (t.ideaSlug ? [t.ideaSlug] : [])))].sort();
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
        <select aria-label="Move" value={form.move} onChange={set('move')}>
          <option value="">any move</option>
          {TRANSCRIPT_MOVES.map((m) => (
            <option key={m} value={m}>
              {m === 'MODERATOR' ? 'moderator' : m}
            </option>
          ))}
        </select>
        <select aria-label="Idea" value={form.idea} onChange={set('idea')}>
          <option value="">any idea</option>
          {ideas.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
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
                <a href={href('transcript', hit.kind, hit.id, { m: hit.index })} className="hit-link">
                  {hit.agentName ?? 'Moderator'} · {hit.move === 'MODERATOR' ? 'moderator' : hit.move} · {hit.messageId}
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
      <h2>Every transcript</h2>
      <ErrorNotice error={list.error} />
      {list.data && list.data.transcripts.length === 0 && <p className="muted">No debate has run yet.</p>}
      {list.data && list.data.transcripts.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Idea</th>
              <th>Started</th>
              <th>Status</th>
              <th className="num">Messages</th>
            </tr>
          </thead>
          <tbody>
            {list.data.transcripts.map((t) => {
              const badge = statusBadge(t.status, false);
              return (
                <tr key={t.id}>
                  <td>
                    <a href={href('transcript', t.kind, t.id)}>{t.title}</a>
                  </td>
                  <td>
                    {t.ideaSlug ? (
                      <a href={href('idea', t.ideaSlug)}>{t.ideaSlug}</a>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>{when(t.createdAt)}</td>
                  <td>
                    <span className={`badge ${badge.tone}`}>
                      {t.status === 'running' ? 'running or interrupted' : badge.label}
                    </span>
                  </td>
                  <td className="num">{t.messages}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
