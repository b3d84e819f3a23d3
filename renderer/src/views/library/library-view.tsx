import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DebateSummary, IdeaSummary } from '../../../../core/contract';
import { useHost } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { StartTournamentForm } from '../arena/start-tournament-form';
import { ErrorNotice } from '../../ui/error-notice';
import { VirtualList } from '../../ui/virtual-list';
import { CaptureBox } from './capture-box';
import { attachDropped, captureDropped, carriesSomething, readDrop } from './drop';
import { DropZone } from './drop-zone';
import './library.css';
import { plainText } from '../../ui/plain-text';
import { score } from '../evaluation/format';

type SortKey = 'title' | 'type' | 'stage' | 'score' | 'confidence' | 'updated' | 'debate';
const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: 'title', label: 'Idea', className: 'c-title' },
  { key: 'type', label: 'Type', className: 'c-type' },
  { key: 'stage', label: 'Stage', className: 'c-stage' },
  { key: 'score', label: 'Score', className: 'c-num' },
  { key: 'confidence', label: 'Conf.', className: 'c-num' },
  { key: 'updated', label: 'Updated', className: 'c-date' },
  { key: 'debate', label: 'Last debate', className: 'c-debate' },
];
const ROW_HEIGHT = 54;

/** Text with the search's [matched words] marked. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(\[[^\]]+\])/g);
  return (
    <>
      {parts.map((part, i) =>
        /^\[[^\]]+\]$/.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static snippet
          <mark key={i}>{part.slice(1, -1)}</mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** Whether a drag is over a text field, which takes dropped text itself. */
function intoTextField(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, [contenteditable="true"]') !== null;
}

/** Asked for with "show all": more hits than any library holds. */
const SHOW_ALL = 100_000;

/**
 * All ideas: title, type, stage, tags, score, confidence, stale badge, last debate; full-text search,
 * filters, sort; the capture box and the drop zone (the whole page takes a drop, highlighted while
 * something is dragged over it). It follows the folder: every `sync:changed`
 * (a capture, another editor's save seen by the watcher) reloads the list.
 */
export function LibraryView({ route }: { route: Route }) {
  const host = useHost();
  const ideas = useChannel('ideas:list', {});
  const taxonomy = useChannel('taxonomy:get', {});
  const debates = useChannel('debates:list', {});
  const [query, setQuery] = useState(route.query.get('q') ?? '');
  const [searchFor, setSearchFor] = useState(query.trim());
  // The search answers its best 50 and how many match in all; "show all" asks for every one.
  const [allFor, setAllFor] = useState<string | null>(null);
  const showAll = allFor === searchFor;
  const search = useChannel(
    'ideas:search',
    searchFor.length >= 2 ? { query: searchFor, ...(showAll ? { limit: SHOW_ALL } : {}) } : null,
  );
  const [stage, setStage] = useState('');
  const [type, setType] = useState('');
  const [tag, setTag] = useState(route.query.get('tag') ?? '');
  const [staleOnly, setStaleOnly] = useState(false);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'updated', desc: true });
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [rowOver, setRowOver] = useState<string | null>(null);
  const [pageOver, setPageOver] = useState(false);
  // Picking ideas for a tournament: a checkbox on every row, the picks in the order they were made
  // (the tournament's order). The list's rows do not depend on the picks, so a tick redraws only
  // the rows in view, however many ideas the library holds.
  const asked = route.query.get('tournament');
  const [selecting, setSelecting] = useState(asked === '1');
  const [picked, setPicked] = useState<string[]>([]);
  useEffect(() => {
    if (asked === '1') setSelecting(true);
  }, [asked]);
  const pickedSet = useMemo(() => new Set(picked), [picked]);
  const togglePick = useCallback(
    (slug: string) => setPicked((p) => (p.includes(slug) ? p.filter((x) => x !== slug) : [...p, slug])),
    [],
  );
  const stopSelecting = useCallback(() => {
    setSelecting(false);
    setPicked([]);
    if (asked !== null) navigate(href('library'));
  }, [asked]);

  usePush('sync:changed', (report) => {
    ideas.reload();
    if (searchFor.length >= 2) search.reload();
    if (report.slugs.added.length > 0) setFresh((f) => new Set([...f, ...report.slugs.added]));
  });
  usePush('run:status', (p) => {
    if (p.protocol === 'crux') debates.reload();
  });

  // Searching waits for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => setSearchFor(query.trim()), 200);
    return () => clearTimeout(timer);
  }, [query]);

  const markFresh = (slugs: string[]) => setFresh((f) => new Set([...f, ...slugs]));
  const capture = useAction(async (dropped: ReturnType<typeof readDrop>) => {
    const made = await captureDropped(host, dropped);
    markFresh(made.map((m) => m.slug));
    setNotice(
      `Captured ${made.map((m) => `“${m.title}”`).join(', ')}${made.some((m) => m.conflict) ? ' (one changed on disk meanwhile; the app’s copy was kept beside it)' : ''}.`,
    );
    ideas.reload();
  });
  const attach = useAction(async (slug: string, dropped: ReturnType<typeof readDrop>) => {
    const paths = await attachDropped(host, slug, dropped);
    setNotice(`Attached to ${slug}: ${paths.join(', ')}.`);
    ideas.reload();
  });

  const stageOrder = useMemo(
    () => new Map((taxonomy.data?.stages ?? []).map((s, i) => [s.id, i] as const)),
    [taxonomy.data],
  );
  const lastDebate = useMemo(() => {
    const map = new Map<string, DebateSummary>();
    // debates:list is newest first: the first one seen per idea is its last debate.
    for (const d of debates.data?.debates ?? []) if (d.ideaSlug && !map.has(d.ideaSlug)) map.set(d.ideaSlug, d);
    return map;
  }, [debates.data]);
  const allTags = useMemo(() => [...new Set((ideas.data?.ideas ?? []).flatMap((i) => i.tags))].sort(), [ideas.data]);

  const hits = searchFor.length >= 2 ? search.data?.hits : undefined;
  const rows = useMemo((): { idea: IdeaSummary; snippet: string | null }[] => {
    const all = ideas.data?.ideas ?? [];
    const keep = (i: IdeaSummary) =>
      (!stage || i.stage === stage) &&
      (!type || i.type === type) &&
      (!tag || i.tags.includes(tag)) &&
      (!staleOnly || i.stale);
    if (hits) {
      // Search results keep the search's ranking; the filters still apply.
      const bySlug = new Map(all.map((i) => [i.slug, i]));
      return hits.flatMap((h) => {
        const idea = bySlug.get(h.slug);
        return idea && keep(idea) ? [{ idea, snippet: h.snippet }] : [];
      });
    }
    const value = (i: IdeaSummary): string | number => {
      switch (sort.key) {
        case 'title':
          return i.title.toLowerCase();
        case 'type':
          return i.type ?? '';
        case 'stage':
          return stageOrder.get(i.stage) ?? 999;
        case 'score':
          return i.overallScore ?? -1;
        case 'confidence':
          return i.confidence ?? -1;
        case 'updated':
          return i.updated ?? i.created ?? '';
        case 'debate':
          return lastDebate.get(i.slug)?.createdAt ?? '';
      }
    };
    const sorted = all.filter(keep).map((idea) => ({ idea, snippet: null as string | null, v: value(idea) }));
    sorted.sort((a, b) => {
      const c = a.v < b.v ? -1 : a.v > b.v ? 1 : a.idea.title.localeCompare(b.idea.title);
      return sort.desc ? -c : c;
    });
    return sorted;
  }, [ideas.data, hits, stage, type, tag, staleOnly, sort, stageOrder, lastDebate]);

  const total = ideas.data?.ideas.length ?? 0;
  const busy = capture.running || attach.running;
  const pickedIdeas = useMemo(() => {
    const bySlug = new Map((ideas.data?.ideas ?? []).map((i) => [i.slug, i]));
    // An idea removed from the folder meanwhile drops out of the picks.
    return picked.flatMap((slug) => {
      const idea = bySlug.get(slug);
      return idea ? [{ slug, title: idea.title }] : [];
    });
  }, [picked, ideas.data]);

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'library:tournament',
        title: selecting
          ? 'Stop picking ideas for a tournament'
          : 'Start a tournament of ideas (pick them in the list)…',
        group: 'Action',
        keywords: 'arena tournament elo rank compare head-to-head select pick',
        run: () => (selecting ? stopSelecting() : setSelecting(true)),
      },
    ],
    [selecting, stopSelecting],
  );
  useCommands('library-view', commands);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the whole library takes dropped files and text; the drop zone's "Choose files…" button is the keyboard way
    <section
      className={`view library${pageOver ? ' over' : ''}`}
      data-testid="library"
      onDragOver={(e) => {
        // A text field takes dropped text itself (the capture box); elsewhere the library does.
        if (!carriesSomething(e.dataTransfer) || intoTextField(e.target)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setPageOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPageOver(false);
      }}
      onDrop={(e) => {
        setPageOver(false);
        if (intoTextField(e.target)) return;
        e.preventDefault();
        void capture.run(readDrop(e.dataTransfer));
      }}
    >
      {pageOver && (
        <div className="library-drop-hint" aria-hidden="true">
          Drop to capture a new idea · onto an idea’s row to attach it there
        </div>
      )}
      <header className="row library-head">
        <h1>Library</h1>
        {hits && search.data ? (
          <span className="muted" data-testid="library-count">
            {hits.length < search.data.total
              ? `${hits.length} of ${search.data.total} matching ideas`
              : `${search.data.total} matching ${search.data.total === 1 ? 'idea' : 'ideas'}`}
            {rows.length < hits.length && `, ${rows.length} after the filters`}
            {hits.length < search.data.total && (
              <>
                {' · '}
                <button type="button" className="link" onClick={() => setAllFor(searchFor)}>
                  show all
                </button>
              </>
            )}
          </span>
        ) : (
          <span className="muted" data-testid="library-count">
            {ideas.loading && !ideas.data ? 'Loading…' : `${rows.length} of ${total} ideas`}
          </span>
        )}
        <button
          type="button"
          className="library-pick-toggle"
          aria-pressed={selecting}
          onClick={() => (selecting ? stopSelecting() : setSelecting(true))}
          title="Pick 2 to 8 ideas in the list and set them against each other in head-to-head arenas"
        >
          {selecting ? 'Stop picking' : 'Tournament of ideas…'}
        </button>
      </header>

      <div className="library-capture">
        <CaptureBox
          focus={route.query.get('new') === '1' ? (route.query.get('t') ?? '') : null}
          onCaptured={(slug) => markFresh([slug])}
        />
        <DropZone
          label="Drop to capture"
          hint="Anywhere on this page: a .md file becomes an idea, a .txt file or dropped text one titled from its first line, an image or a PDF one with the file attached. Drop onto a row to attach the file to that idea."
          busy={busy}
          onDropped={(dropped) => void capture.run(dropped)}
        >
          {busy && <span className="muted small">Working…</span>}
        </DropZone>
      </div>
      {notice && (
        <p role="status" className="small library-notice">
          {notice}{' '}
          <button type="button" className="link" onClick={() => setNotice(null)} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
      <ErrorNotice error={capture.error} onDismiss={capture.clearError} />
      <ErrorNotice error={attach.error} onDismiss={attach.clearError} />
      <ErrorNotice error={ideas.error} />

      <div className="row library-filters">
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search every idea’s text…"
          aria-label="Search ideas"
          className="library-search"
        />
        <select value={stage} onChange={(e) => setStage(e.target.value)} aria-label="Filter by stage">
          <option value="">All stages</option>
          {taxonomy.data?.stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <select value={type} onChange={(e) => setType(e.target.value)} aria-label="Filter by type">
          <option value="">All types</option>
          {taxonomy.data?.types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <select value={tag} onChange={(e) => setTag(e.target.value)} aria-label="Filter by tag">
          <option value="">All tags</option>
          {allTags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={staleOnly} onChange={(e) => setStaleOnly(e.target.checked)} /> Stale only
        </label>
        {search.loading && <span className="muted small">Searching…</span>}
        <ErrorNotice error={search.error} />
      </div>

      <div className={`library-main${selecting ? ' selecting' : ''}`}>
        <div className="library-table">
          <div className="library-row library-header">
            {selecting && (
              <div className="c-pick" title="Picked for the tournament" data-testid="library-picked-count">
                {picked.length}
              </div>
            )}
            {COLUMNS.map((c) => (
              <div key={c.key} className={c.className}>
                {hits ? (
                  c.label
                ) : (
                  <button
                    type="button"
                    className="link sort"
                    onClick={() =>
                      setSort((s) => ({
                        key: c.key,
                        desc: s.key === c.key ? !s.desc : c.key !== 'title' && c.key !== 'type',
                      }))
                    }
                    aria-label={`Sort by ${c.label}`}
                  >
                    {c.label}
                    {sort.key === c.key ? (sort.desc ? ' ↓' : ' ↑') : ''}
                  </button>
                )}
              </div>
            ))}
          </div>
          {rows.length === 0 && !ideas.loading ? (
            <p className="muted library-empty">
              {total === 0 ? 'No ideas yet: capture one above, or drop a file.' : 'No idea matches.'}
            </p>
          ) : (
            <VirtualList
              className="library-list"
              ariaLabel="Ideas"
              items={rows}
              rowHeight={ROW_HEIGHT}
              render={({ idea, snippet }) => {
                const debate = lastDebate.get(idea.slug);
                return (
                  // biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the idea page's "Attach files…" button is the keyboard way
                  <div
                    className={`library-row${fresh.has(idea.slug) ? ' fresh' : ''}${rowOver === idea.slug ? ' over' : ''}${selecting && pickedSet.has(idea.slug) ? ' picked' : ''}`}
                    data-slug={idea.slug}
                    onDragOver={(e) => {
                      if (!carriesSomething(e.dataTransfer)) return;
                      e.preventDefault();
                      e.dataTransfer.dropEffect = 'copy';
                      setRowOver(idea.slug);
                    }}
                    onDragLeave={() => setRowOver((s) => (s === idea.slug ? null : s))}
                    onDrop={(e) => {
                      e.preventDefault();
                      // Attached here, so the library around the row does not capture it as well.
                      e.stopPropagation();
                      setRowOver(null);
                      setPageOver(false);
                      void attach.run(idea.slug, readDrop(e.dataTransfer));
                    }}
                  >
                    {selecting && (
                      <div className="c-pick">
                        <input
                          type="checkbox"
                          checked={pickedSet.has(idea.slug)}
                          onChange={() => togglePick(idea.slug)}
                          aria-label={`Pick “${idea.title}” for the tournament`}
                        />
                      </div>
                    )}
                    <div className="c-title">
                      <div className="one-line">
                        <a href={href('idea', idea.slug)} title={idea.title}>
                          {idea.title}
                        </a>
                        {idea.stale && <span className="badge warn">stale</span>}
                        {fresh.has(idea.slug) && <span className="badge accent">new</span>}
                      </div>
                      <div className="muted small one-line">
                        {snippet ? <Snippet text={snippet} /> : plainText(idea.summary)}
                        {idea.tags.length > 0 && (
                          <span className="tags">
                            {idea.tags.slice(0, 6).map((t) => (
                              <span key={t} className="badge">
                                {t}
                              </span>
                            ))}
                          </span>
                        )}
                      </div>
                    </div>
                    <div className="c-type">{idea.type ?? <span className="muted">—</span>}</div>
                    <div className="c-stage">
                      <span className="badge">{idea.stage}</span>
                    </div>
                    <div className="c-num">{score(idea.overallScore)}</div>
                    <div className="c-num">{score(idea.confidence)}</div>
                    <div className="c-date">{idea.updated ?? idea.created ?? '—'}</div>
                    <div className="c-debate">
                      {debate ? (
                        <a href={href('debate', debate.id)} title={debate.topic}>
                          {debate.createdAt.slice(0, 10)} <span className="badge">{debate.status}</span>
                        </a>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </div>
                  </div>
                );
              }}
            />
          )}
        </div>
        {selecting && (
          <aside className="tournament-tray card" aria-label="Tournament of ideas" data-testid="tournament-tray">
            <StartTournamentForm ideas={pickedIdeas} onRemove={togglePick} onCancel={stopSelecting} />
          </aside>
        )}
      </div>
    </section>
  );
}
