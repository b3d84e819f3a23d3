import { useCallback, useMemo, useRef, useState } from 'react';
import type { IdeaDetail } from '../../../../core/contract';
import { useClient, useHost } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Markdown } from '../../ui/markdown';
import { attachDropped, carriesSomething, type Dropped, readDrop } from '../library/drop';
import { DropZone } from '../library/drop-zone';
import { ArenasPanel } from '../arena/arenas-panel';
import { score } from '../evaluation/format';
import { CompareWith } from '../compare/compare-with';
import { DebatesPanel } from './debates-panel';
import { DevelopmentSection } from './development-section';
import { EvaluationPanel } from './evaluation-panel';
import { type IdeaAction, IdeaActionForm } from './idea-action-form';
import { IdeaFiles } from './idea-files';
import { MemoryPanel } from './memory-panel';
import { actionCommands, type PageAction } from './page-actions';
import './idea.css';

/** Routes live in the hash, so in-page jumps scroll instead of following `#anchor` links. */
function focusDevelop(): void {
  document.getElementById('develop')?.scrollIntoView({ block: 'start' });
  document.getElementById('develop-ask')?.focus();
}

/** The README without its first heading when that is the idea's title (the page shows it already). */
function withoutTitle(readme: string, title: string): string {
  const m = /^\s*#\s+(.+?)\s*#*\s*(\n|$)/.exec(readme);
  return m && (m[1] as string).trim().toLowerCase() === title.trim().toLowerCase() ? readme.slice(m[0].length) : readme;
}

const DIRECTION: Record<string, [string, string]> = {
  // How a relationship reads from each end: [from the source, from the target].
  parent: ['parent of', 'child of'],
  child: ['child of', 'parent of'],
  inspired_by: ['inspired by', 'inspired'],
  combines: ['combines', 'combined into'],
  conflicts: ['conflicts with', 'conflicts with'],
  related: ['related to', 'related to'],
};

function Relationships({ idea, titles }: { idea: IdeaDetail; titles: Map<string, string> }) {
  return (
    <section className="card stack" aria-labelledby="rel-title">
      <h2 id="rel-title">Relationships</h2>
      {idea.relationships.length === 0 ? (
        <p className="muted">None yet (the classify agent or the README’s `relationships:` add them).</p>
      ) : (
        <ul className="rel-list">
          {idea.relationships.map((r) => {
            const outgoing = r.source === idea.slug;
            const other = outgoing ? r.target : r.source;
            const words = DIRECTION[r.type] ?? [r.type, r.type];
            return (
              <li key={`${r.source}/${r.target}/${r.type}`}>
                <span className="muted">{outgoing ? words[0] : words[1]}</span>{' '}
                {titles.has(other) ? (
                  <a href={href('idea', other)}>{titles.get(other)}</a>
                ) : (
                  <span title="No idea with this slug in the library">{other} (missing)</span>
                )}
                {r.strength !== null && <span className="badge">{r.strength.toFixed(1)}</span>}
                {r.reason && <div className="muted small">{r.reason}</div>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * One idea: the README rendered, its stage (changeable), tags, score, the evaluation and debate
 * panels, development Q&A, research and notes, relationships, the problems in its folder. Files
 * dropped anywhere on the page are attached to it.
 */
export function IdeaView({ route }: { route: Route }) {
  const slug = route.params[0] ?? '';
  const host = useHost();
  const client = useClient();
  const [reloadKey, setReloadKey] = useState(0);
  const idea = useChannel('ideas:get', slug ? { slug } : null, `${slug}/${reloadKey}`);
  const taxonomy = useChannel('taxonomy:get', {});
  const list = useChannel('ideas:list', {});
  const [over, setOver] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [action, setAction] = useState<IdeaAction | null>(null);
  const [comparing, setComparing] = useState(false);

  usePush('sync:changed', (report) => {
    const { added, changed, removed } = report.slugs;
    if ([...added, ...changed, ...removed].includes(slug)) setReloadKey((k) => k + 1);
    if (added.length + removed.length > 0) list.reload();
  });

  const setStage = useAction(async (stage: string) => {
    const result = await client.invoke('ideas:setStage', { slug, stage });
    setNotice(
      result.conflict
        ? `The README changed on disk meanwhile: yours is kept, the app’s version is ${result.path}.`
        : `Moved to ${stage}.`,
    );
    setReloadKey((k) => k + 1);
  });
  const attach = useAction(async (dropped: Dropped) => {
    const paths = await attachDropped(host, slug, dropped);
    setNotice(`Attached: ${paths.join(', ')}`);
    setReloadKey((k) => k + 1);
  });

  const titles = useMemo(() => new Map((list.data?.ideas ?? []).map((i) => [i.slug, i.title])), [list.data]);
  const data = idea.data;
  const stages = taxonomy.data?.stages ?? [];
  const stageIndex = stages.findIndex((s) => s.id === data?.stage);
  const nextStage = stageIndex >= 0 ? stages[stageIndex + 1] : undefined;

  // Opens the drop zone's file chooser (set by the zone; the palette's "Attach files…" calls it).
  const chooseFiles = useRef<(() => void) | null>(null);

  const toggle = useCallback((which: IdeaAction) => setAction((now) => (now === which ? null : which)), []);
  const actions = useMemo<PageAction[]>(() => {
    const title = data?.title ?? slug;
    return [
      {
        id: 'evaluate',
        label: 'Evaluate…',
        palette: `Evaluate “${title}” (quick, standard or deep)…`,
        keywords: 'evaluate score red team cost',
        run: () => setAction('evaluate'),
      },
      {
        id: 'debate',
        label: 'Start a crux debate…',
        palette: `Start a crux debate about “${title}”…`,
        keywords: 'debate crux agents personas cost',
        run: () => setAction('debate'),
      },
      {
        id: 'arena',
        label: 'Start an arena…',
        palette: `Start an arena about “${title}”…`,
        keywords: 'arena proposals vote judge elo agents cost',
        run: () => setAction('arena'),
      },
      {
        id: 'compare',
        label: 'Compare with…',
        palette: `Compare “${title}” with other ideas…`,
        keywords: 'compare comparison side by side scores',
        run: () => setComparing(true),
      },
      {
        id: 'develop',
        label: 'Develop (Q&A)',
        palette: `Develop “${title}” (questions)`,
        keywords: 'develop questions answers qa',
        run: () => focusDevelop(),
      },
      {
        id: 'export',
        label: 'Export…',
        palette: `Export the synthesis of “${title}”`,
        keywords: 'export pdf html markdown download',
        run: () => navigate(href('export', { source: 'synthesis', id: slug })),
      },
      {
        id: 'graph',
        label: 'In the graph',
        palette: `Show “${title}” in the graph`,
        keywords: 'graph relationships',
        run: () => navigate(href('graph', { focus: slug })),
      },
    ];
  }, [data?.title, slug]);
  const [evaluateAction, debateAction, arenaAction, compareAction, developAction, exportAction, graphAction] =
    actions as [PageAction, PageAction, PageAction, PageAction, PageAction, PageAction, PageAction];

  const commands = useMemo<Command[]>(() => {
    if (!data) return [];
    const title = data.title;
    // Every stage but the current one, as the Stage select offers them.
    const moves: PageAction[] = stages
      .filter((st) => st.id !== data.stage)
      .map((st) => ({
        id: `stage:${st.id}`,
        label: st.name,
        palette: `Move “${title}” to ${st.name}${st.id === nextStage?.id ? ' (the next stage)' : ''}`,
        keywords: `stage pipeline move ${st.id === nextStage?.id ? 'advance next' : ''}`,
        run: () => void setStage.run(st.id),
      }));
    const attachAction: PageAction = {
      id: 'attach',
      label: 'Choose files…',
      palette: `Attach files to “${title}”…`,
      keywords: 'attach files upload assets add',
      run: () => chooseFiles.current?.(),
    };
    return actionCommands(slug, [...actions, ...moves, attachAction]);
  }, [data, slug, actions, stages, nextStage, setStage.run]);
  useCommands(`idea-view:${slug}`, commands);

  if (!slug) {
    return (
      <section className="view">
        <h1>Idea</h1>
        <p>
          No idea named. Open one from the <a href={href('library')}>library</a>.
        </p>
      </section>
    );
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the whole page takes dropped files; the "Choose files…" button is the keyboard way
    <section
      className={`view idea-page${over ? ' over' : ''}`}
      onDragOver={(e) => {
        if (!carriesSomething(e.dataTransfer)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void attach.run(readDrop(e.dataTransfer));
      }}
    >
      <nav className="muted small">
        <a href={href('library')}>Library</a> / {slug}
      </nav>
      <ErrorNotice error={idea.error} />
      {!data && !idea.error && <p className="muted">Loading…</p>}
      {data && (
        <>
          <header className="idea-head">
            <h1>{data.title}</h1>
            <div className="row">
              <label>
                Stage
                <select
                  value={data.stage}
                  onChange={(e) => void setStage.run(e.target.value)}
                  disabled={setStage.running}
                  aria-label="Stage"
                  data-action="stage"
                >
                  {stages.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                  {stageIndex < 0 && <option value={data.stage}>{data.stage}</option>}
                </select>
              </label>
              {data.type && <span className="badge accent">{data.type}</span>}
              {data.secondaryTypes.length > 0 && (
                <span className="muted small" data-testid="secondary-types" title="Other idea types it also belongs to">
                  also {data.secondaryTypes.join(', ')}
                </span>
              )}
              {data.stale && (
                <span className="badge warn" title="The idea changed since its evaluation">
                  stale
                </span>
              )}
              <span className="muted small" data-testid="idea-figures">
                <span title="The weighted mean of the category scores of the current evaluation, from 0 to 10">
                  overall score {score(data.overallScore)} (0–10)
                </span>{' '}
                ·{' '}
                <span title="How sure the evaluation is of its scores, from 0 (a guess) to 1 (settled)">
                  evaluation confidence {score(data.confidence)} (0–1)
                </span>{' '}
                · updated {data.updated ?? '—'}
              </span>
            </div>
            {data.tags.length > 0 && (
              <div className="row tags">
                {data.tags.map((t) => (
                  <a key={t} className="badge" href={href('library', { tag: t })}>
                    {t}
                  </a>
                ))}
              </div>
            )}
            <div className="row actions">
              {[evaluateAction, debateAction, arenaAction].map((a) => (
                <button
                  key={a.id}
                  type="button"
                  className="primary"
                  data-action={a.id}
                  aria-pressed={action === a.id}
                  onClick={() => toggle(a.id as IdeaAction)}
                >
                  {a.label}
                </button>
              ))}
              <button
                type="button"
                data-action={compareAction.id}
                aria-pressed={comparing}
                onClick={() => setComparing(!comparing)}
              >
                {compareAction.label}
              </button>
              {[developAction, exportAction].map((a) => (
                <button key={a.id} type="button" data-action={a.id} onClick={a.run}>
                  {a.label}
                </button>
              ))}
              <a className="button" data-action={graphAction.id} href={href('graph', { focus: slug })}>
                {graphAction.label}
              </a>
            </div>
            {notice && (
              <p role="status" className="small">
                {notice}
              </p>
            )}
            <ErrorNotice error={setStage.error} onDismiss={setStage.clearError} />
            <ErrorNotice error={attach.error} onDismiss={attach.clearError} />
          </header>
          {action && <IdeaActionForm key={action} slug={slug} action={action} onClose={() => setAction(null)} />}
          {comparing && <CompareWith slug={slug} onClose={() => setComparing(false)} />}

          <div className="idea-grid">
            <div className="stack">
              <article className="card readme" aria-label="README">
                {data.readme.trim() ? (
                  <Markdown text={withoutTitle(data.readme, data.title)} />
                ) : (
                  <p className="muted">The README is empty.</p>
                )}
              </article>
              <EvaluationPanel slug={slug} />
              <DebatesPanel slug={slug} />
              <ArenasPanel slug={slug} />
              <MemoryPanel slug={slug} />
              <DevelopmentSection slug={slug} reloadKey={reloadKey} />
            </div>
            <aside className="stack">
              <DropZone
                label="Attach files"
                hint="Drop files or text anywhere on this page: they are copied into the idea’s assets/ (never overwriting)."
                busy={attach.running}
                onDropped={(d) => void attach.run(d)}
                action="attach"
                chooseRef={chooseFiles}
              />
              <Relationships idea={data} titles={titles} />
              <IdeaFiles slug={slug} files={data.files} reloadKey={reloadKey} />
              {data.errors.length > 0 && (
                <section className="card stack" aria-labelledby="problems-title">
                  <h2 id="problems-title">Problems in this folder</h2>
                  <ul>
                    {data.errors.map((e) => (
                      <li key={e.file}>
                        <code>{e.file}</code>: {e.reason}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
            </aside>
          </div>
        </>
      )}
    </section>
  );
}
