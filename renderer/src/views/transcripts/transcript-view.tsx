import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { VirtualList, type VirtualListHandle } from '../../ui/virtual-list';
import { statusBadge, when } from '../debate/format';
import { highlight } from './highlight';
import { ROW_HEIGHT, TranscriptRow } from './transcript-row';
import './transcripts.css';

/** One empty list for every row without a match, so the memoized rows see the same props. */
const NO_WORDS: readonly string[] = [];

/** A running debate's transcript is read again at most this often while its events arrive. */
const LIVE_RELOAD_MS = 3000;

/** The address of one message, for pasting elsewhere (the page's own address with the route). */
function messageLink(kind: string, id: string, index: number): string {
  return `${window.location.origin}${window.location.pathname}${href('transcript', kind, id, { m: index })}`;
}

/**
 * `#/transcript/<kind>/<id>?m=<index>`: one transcript, virtualized (fixed-height rows, long
 * messages clamped with "Read all"), searchable within, each message linkable. `m` scrolls to its
 * message and marks it.
 */
export function TranscriptView({ route }: { route: Route }) {
  const [kind = 'debate', id] = route.params;
  if (!id || kind !== 'debate') {
    return (
      <section className="view">
        <h1>Transcript</h1>
        <p>
          No such transcript. Every transcript is listed under <a href={href('transcripts')}>Transcripts</a>.
        </p>
      </section>
    );
  }
  const m = route.query.get('m');
  return <Reader key={id} id={id} target={m !== null && /^\d+$/.test(m) ? Number(m) : null} />;
}

function Reader({ id, target }: { id: string; target: number | null }) {
  const loaded = useChannel('transcripts:get', { kind: 'debate', id });
  const list = useRef<VirtualListHandle>(null);
  const [query, setQuery] = useState('');
  const [words, setWords] = useState<string[]>([]);
  const [at, setAt] = useState(0);
  const [expanded, setExpanded] = useState<number | null>(null);
  const [copied, setCopied] = useState<number | null>(null);
  const [fallbackLink, setFallbackLink] = useState<string | null>(null);
  const data = loaded.data;
  const messages = data?.transcript ?? [];
  const live = data?.status === 'running' || data?.status === 'paused';

  // Live debates: read again, at most every few seconds, while events arrive.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = loaded.reload;
  usePush('debate:event', (payload) => {
    if (payload.debateId !== id || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reload();
    }, LIVE_RELOAD_MS);
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
      .filter((msg) => words.every((w) => msg.content.toLocaleLowerCase().includes(w)))
      .map((msg) => msg.index);
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
      const link = messageLink('debate', id, index);
      navigator.clipboard.writeText(link).then(
        () => {
          setCopied(index);
          setFallbackLink(null);
          setTimeout(() => setCopied((c) => (c === index ? null : c)), 1500);
        },
        () => setFallbackLink(link),
      );
    },
    [id],
  );

  const names = useMemo(() => new Map((data?.agents ?? []).map((a, i) => [a.id, { name: a.name, i }])), [data]);
  const commands = useMemo<Command[]>(
    () => [
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
        id: 'transcript:top',
        title: 'Go to the first message',
        group: 'Transcript',
        run: () => list.current?.scrollToIndex(0),
      },
      {
        id: 'transcript:end',
        title: 'Go to the last message',
        group: 'Transcript',
        run: () => list.current?.scrollToIndex(Math.max(0, messages.length - 1)),
      },
    ],
    [id, messages.length],
  );
  useCommands('transcript-view', commands);

  const open = expanded === null ? null : messages[expanded];
  const badge = data ? statusBadge(data.status, false) : null;
  return (
    <section className="view transcript-view">
      <header className="transcript-head">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <h1>{data?.title ?? 'Transcript'}</h1>
          <div className="row small">
            {badge && <span className={`badge ${badge.tone}`}>{live ? 'live' : badge.label}</span>}
            {data && <span className="muted">{when(data.createdAt)}</span>}
            {data?.ideaSlug && <a href={href('idea', data.ideaSlug)}>{data.ideaSlug}</a>}
            <a href={href('debate', id)}>debate</a>
            <a href={href('crux-map', id)}>crux map</a>
            <span className="muted" data-testid="count">
              {messages.length} messages
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
      {data && messages.length === 0 && <p className="muted">No message yet.</p>}
      <div className="transcript-body">
        <VirtualList
          items={messages}
          rowHeight={ROW_HEIGHT}
          className="transcript-list"
          ariaLabel="Messages"
          handle={list}
          render={(msg) => {
            const who = msg.agent ? names.get(msg.agent) : undefined;
            return (
              <TranscriptRow
                message={msg}
                agentName={who?.name ?? msg.agent}
                agentIndex={who?.i ?? 0}
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
        {open && (
          <aside className="transcript-expanded card" aria-label={`Message ${open.index} in full`}>
            <header className="row">
              <strong>
                #{open.index} · {open.id} · {open.agent ? (names.get(open.agent)?.name ?? open.agent) : 'Moderator'} ·{' '}
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
