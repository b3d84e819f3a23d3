import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EvaluationEntry, TranscriptKind, TranscriptMessage } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { personaColours } from '../../ui/persona-colour';
import { VirtualList, type VirtualListHandle } from '../../ui/virtual-list';
import { statusBadge, when } from '../debate/format';
import { entrySearchText } from './entry-search';
import { highlight } from './highlight';
import { EntryRow, ROW_HEIGHT, TranscriptRow } from './transcript-row';
import './transcripts.css';

/** One empty list for every row without a match, so the memoized rows see the same props. */
const NO_WORDS: readonly string[] = [];

/** A running debate's or evaluation's transcript is read again at most this often while its events arrive. */
const LIVE_RELOAD_MS = 3000;

/** The address of one message, for pasting elsewhere (the page's own address with the route). */
function messageLink(kind: string, id: string, m: string | number): string {
  return `${window.location.origin}${window.location.pathname}${href('transcript', kind, id, { m })}`;
}

/**
 * `#/transcript/<kind>/<id>?m=<m>`: one transcript, a debate's messages or an evaluation's
 * entries, virtualized (fixed-height rows, long ones clamped with "Read all"), searchable within,
 * each row linkable. `m` scrolls to its row and marks it: a debate message is named by its id
 * (`m25`, `mod3`), as its row, the debate view, the crux map and the ledger name it; an evaluation
 * entry by its number (`#12`). A number for a debate is its place in the transcript (older links).
 */
export function TranscriptView({ route }: { route: Route }) {
  const [kind = 'debate', id] = route.params;
  if (!id || (kind !== 'debate' && kind !== 'evaluation')) {
    return (
      <section className="view">
        <h1>Transcript</h1>
        <p>
          No such transcript. Every transcript is listed under <a href={href('transcripts')}>Transcripts</a>.
        </p>
      </section>
    );
  }
  return <Reader key={`${kind}/${id}`} kind={kind} id={id} wanted={route.query.get('m')} />;
}

type Row = TranscriptMessage | EvaluationEntry;
const isEntry = (row: Row): row is EvaluationEntry => 'seq' in row;
const indexOf = (row: Row) => (isEntry(row) ? row.seq : row.index);
/** What the find looks in (an entry by its log's codes and by the words its row shows). */
const textOf = (row: Row) => (isEntry(row) ? entrySearchText(row) : row.content);

/** The place in the transcript a link's `m` names: a message id, or a number (an entry's, or a place). */
function placeOf(rows: readonly Row[], wanted: string | null): number | null {
  if (wanted === null || wanted === '') return null;
  if (/^\d+$/.test(wanted)) return Number(wanted);
  const row = rows.find((r) => !isEntry(r) && r.id === wanted);
  return row ? indexOf(row) : null;
}

/**
 * A debate transcript's rows counted by kind, so the figure for accepted messages is the one the
 * debate view's header and meter give ("N of 200"), not the rows with refusals and notes in.
 */
function debateCount(rows: readonly Row[]): string {
  let accepted = 0;
  let refused = 0;
  let notes = 0;
  for (const row of rows) {
    if (isEntry(row)) continue;
    if (row.kind === 'message') accepted++;
    else if (row.kind === 'blocked') refused++;
    else notes++;
  }
  return `${accepted} accepted messages · ${refused} refused · ${notes} from the moderator`;
}

/** What a link to a row says: a debate message's id, an evaluation entry's number. */
const linkName = (row: Row): string | number => (isEntry(row) ? row.seq : row.id);

function Reader({ kind, id, wanted }: { kind: TranscriptKind; id: string; wanted: string | null }) {
  const loaded = useChannel('transcripts:get', { kind, id });
  const list = useRef<VirtualListHandle>(null);
  const [query, setQuery] = useState('');
  const [words, setWords] = useState<string[]>([]);
  const [at, setAt] = useState(0);
  const [expanded, setExpanded] = useState<number | null>(null);
  const [copied, setCopied] = useState<number | null>(null);
  const [fallbackLink, setFallbackLink] = useState<string | null>(null);
  const data = loaded.data;
  const messages: readonly Row[] = (kind === 'evaluation' ? data?.entries : data?.transcript) ?? [];
  const live = data?.status === 'running' || data?.status === 'paused';
  const noun = kind === 'evaluation' ? 'entries' : 'messages';
  const target = useMemo(() => placeOf(messages, wanted), [messages, wanted]);

  // Live debates and evaluations: read again, at most every few seconds, while events arrive.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = loaded.reload;
  const soon = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reload();
    }, LIVE_RELOAD_MS);
  }, [reload]);
  usePush('debate:event', (payload) => {
    if (kind === 'debate' && payload.debateId === id) soon();
  });
  usePush('evaluation:event', (payload) => {
    if (kind === 'evaluation' && payload.evaluationId === id) soon();
  });
  usePush('run:status', (payload) => {
    if (payload.id === id) reload();
  });
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);

  // The search runs a moment after the last keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setWords(query.toLocaleLowerCase().split(/\s+/).filter(Boolean)), 150);
    return () => clearTimeout(timer);
  }, [query]);
  const matches = useMemo(() => {
    if (words.length === 0) return [];
    return messages
      .filter((msg) => {
        const text = textOf(msg).toLocaleLowerCase();
        return words.every((w) => text.includes(w));
      })
      .map(indexOf);
  }, [messages, words]);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new set of matches starts again from its first
  useEffect(() => setAt(0), [matches]);

  // The deep link's message, once the transcript is there (and again when `m` changes).
  const hasMessages = messages.length > 0;
  useEffect(() => {
    if (target !== null && hasMessages) list.current?.scrollToIndex(target);
  }, [target, hasMessages]);

  const go = useCallback(
    (step: number) => {
      if (matches.length === 0) return;
      const next = (at + step + matches.length) % matches.length;
      setAt(next);
      list.current?.scrollToIndex(matches[next] as number);
    },
    [at, matches],
  );

  const copy = useCallback(
    (index: number) => {
      const row = messages[index];
      const link = messageLink(kind, id, row ? linkName(row) : index);
      navigator.clipboard.writeText(link).then(
        () => {
          setCopied(index);
          setFallbackLink(null);
          setTimeout(() => setCopied((c) => (c === index ? null : c)), 1500);
        },
        () => setFallbackLink(link),
      );
    },
    [kind, id, messages],
  );

  const names = useMemo(() => new Map((data?.agents ?? []).map((a, i) => [a.id, { name: a.name, i }])), [data]);
  // The same persona's colour as in its debate, the speakers of this transcript told apart.
  const colourOf = useMemo(() => personaColours((data?.agents ?? []).map((a) => a.id)), [data]);
  const commands = useMemo<Command[]>(
    () => [
      ...(kind === 'evaluation'
        ? [
            {
              id: 'transcript:evaluation',
              title: 'Open this transcript’s evaluation (its columns)',
              group: 'Transcript',
              run: () => navigate(href('evaluation', id)),
            },
            {
              id: 'transcript:convergence',
              title: 'Open this evaluation’s convergence chart',
              group: 'Transcript',
              run: () => navigate(href('convergence', id)),
            },
          ]
        : [
            {
              id: 'transcript:debate',
              title: 'Open this transcript’s debate',
              group: 'Transcript',
              run: () => navigate(href('debate', id)),
            },
            {
              id: 'transcript:map',
              title: 'Open this transcript’s crux map',
              group: 'Transcript',
              run: () => navigate(href('crux-map', id)),
            },
            {
              id: 'transcript:course',
              title: 'Open this debate’s DCG and positions chart',
              group: 'Transcript',
              run: () => navigate(href('convergence', 'debate', id)),
            },
          ]),
      {
        id: 'transcript:top',
        title: `Go to the first ${kind === 'evaluation' ? 'entry' : 'message'}`,
        group: 'Transcript',
        run: () => list.current?.scrollToIndex(0),
      },
      {
        id: 'transcript:end',
        title: `Go to the last ${kind === 'evaluation' ? 'entry' : 'message'}`,
        group: 'Transcript',
        run: () => list.current?.scrollToIndex(Math.max(0, messages.length - 1)),
      },
    ],
    [kind, id, messages.length],
  );
  useCommands('transcript-view', commands);

  const open = expanded === null ? null : messages[expanded];
  // A `running` that no engine of this app drives was interrupted.
  const badge = data ? statusBadge(data.status, data.live, kind) : null;
  return (
    <section className="view transcript-view">
      <header className="transcript-head">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <h1>{data?.title ?? 'Transcript'}</h1>
          <div className="row small">
            {badge && <span className={`badge ${badge.tone}`}>{live ? 'live' : badge.label}</span>}
            {data && <span className="muted">{when(data.createdAt)}</span>}
            {data?.ideaSlug && <a href={href('idea', data.ideaSlug)}>{data.ideaSlug}</a>}
            {kind === 'evaluation' ? (
              <>
                <a href={href('evaluation', id)}>evaluation</a>
                <a href={href('convergence', id)}>convergence</a>
              </>
            ) : (
              <>
                <a href={href('debate', id)}>debate</a>
                <a href={href('crux-map', id)}>crux map</a>
                <a href={href('convergence', 'debate', id)}>DCG and positions</a>
              </>
            )}
            <span className="muted" data-testid="count">
              {kind === 'evaluation' ? `${messages.length} ${noun}` : debateCount(messages)}
            </span>
          </div>
        </div>
        <form
          className="row"
          aria-label="Search this transcript"
          onSubmit={(e) => {
            e.preventDefault();
            go(1);
          }}
        >
          <input
            type="search"
            aria-label="Find in this transcript"
            placeholder="Find in this transcript"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && e.shiftKey) {
                e.preventDefault();
                go(-1);
              }
            }}
          />
          <span className="muted small" aria-live="polite">
            {words.length > 0 && (matches.length === 0 ? 'no match' : `${at + 1} of ${matches.length}`)}
          </span>
          <button type="button" onClick={() => go(-1)} disabled={matches.length === 0} aria-label="Previous match">
            ↑
          </button>
          <button type="submit" disabled={matches.length === 0} aria-label="Next match">
            ↓
          </button>
        </form>
      </header>
      <ErrorNotice error={loaded.error} />
      {fallbackLink && (
        <div className="row small">
          The link could not be copied here; select it and copy it yourself:
          <input
            readOnly
            value={fallbackLink}
            aria-label="Link to the message"
            onFocus={(e) => e.currentTarget.select()}
            style={{ flex: 1 }}
          />
        </div>
      )}
      {data && messages.length === 0 && (
        <p className="muted">
          {kind === 'evaluation' && data.status === 'completed'
            ? 'This evaluation’s entries could not be rebuilt from its record (its script is missing or no longer replays); the idea page shows its scores.'
            : `No ${kind === 'evaluation' ? 'entry' : 'message'} yet.`}
        </p>
      )}
      <div className="transcript-body">
        <VirtualList
          items={messages}
          rowHeight={ROW_HEIGHT}
          className="transcript-list"
          ariaLabel={kind === 'evaluation' ? 'Entries' : 'Messages'}
          handle={list}
          render={(msg) => {
            const who = msg.agent ? names.get(msg.agent) : undefined;
            if (isEntry(msg)) {
              return (
                <EntryRow
                  entry={msg}
                  agentName={who?.name ?? msg.agent}
                  agentColour={msg.agent ? colourOf(msg.agent) : undefined}
                  target={msg.seq === target}
                  match={matchSet.has(msg.seq)}
                  words={matchSet.has(msg.seq) ? words : NO_WORDS}
                  copied={copied === msg.seq}
                  onExpand={setExpanded}
                  onCopy={copy}
                />
              );
            }
            return (
              <TranscriptRow
                message={msg}
                agentName={who?.name ?? msg.agent}
                agentColour={msg.agent ? colourOf(msg.agent) : undefined}
                target={msg.index === target}
                match={matchSet.has(msg.index)}
                words={matchSet.has(msg.index) ? words : NO_WORDS}
                copied={copied === msg.index}
                onExpand={setExpanded}
                onCopy={copy}
              />
            );
          }}
        />
        {open && isEntry(open) && (
          <aside className="transcript-expanded card" aria-label={`Entry ${open.seq} in full`}>
            <header className="row">
              <strong>
                #{open.seq} · {open.agent ? (names.get(open.agent)?.name ?? open.agent) : 'Protocol'} · {open.title}
              </strong>
              <button type="button" className="link" onClick={() => setExpanded(null)} aria-label="Close">
                ×
              </button>
            </header>
            <p className="transcript-full">{highlight(open.text, words)}</p>
          </aside>
        )}
        {open && !isEntry(open) && (
          <aside className="transcript-expanded card" aria-label={`Message ${open.id} in full`}>
            <header className="row">
              <strong>
                {open.id} · {open.agent ? (names.get(open.agent)?.name ?? open.agent) : 'Moderator'} ·{' '}
                {open.move ?? open.intervention ?? ''}
              </strong>
              <button type="button" className="link" onClick={() => setExpanded(null)} aria-label="Close">
                ×
              </button>
            </header>
            <p className="transcript-full">{highlight(open.content, words)}</p>
          </aside>
        )}
      </div>
    </section>
  );
}
