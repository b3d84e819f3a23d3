import { useEffect, useMemo, useState } from 'react';
import type { IdeaSummary } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { href, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import './pipeline.css';
import { PipelinePanel } from './pipeline-panel';
import { score } from '../evaluation/format';

/** The drag payload: an idea's slug under a type of our own, so dropped files or text are not taken for a card. */
const CARD_TYPE = 'application/x-crucible-idea';
/**
 * Cards drawn per column at first, and how many more each "show more" adds: every card carries a
 * list of all the stages, so 19 columns of 100 cards were 36,000 options and 1.7 s to draw at 2,000
 * ideas. The rest are counted, and shown on request.
 */
const FIRST_CARDS = 20;
const MORE_CARDS = 100;

/**
 * A card's stage as a list whose other stages are put in when it is reached (focus, or a press
 * of the pointer, both before the list opens): 380 cards each holding 19 options were 7,000
 * elements to draw for lists nobody had opened.
 */
function StageSelect({
  idea,
  stages,
  onMove,
}: {
  idea: IdeaSummary;
  stages: { id: string; name: string }[];
  onMove: (stage: string) => void;
}) {
  const [reached, setReached] = useState(false);
  const shown = reached ? stages : stages.filter((s) => s.id === idea.stage);
  return (
    <select
      value={idea.stage}
      onChange={(e) => onMove(e.target.value)}
      onFocus={() => setReached(true)}
      onPointerDown={() => setReached(true)}
      aria-label={`Stage of ${idea.title}`}
      className="small"
    >
      {shown.length === 0 && <option value={idea.stage}>{idea.stage}</option>}
      {shown.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </select>
  );
}

function Card({
  idea,
  stages,
  moving,
  onMove,
  onDragging,
}: {
  idea: IdeaSummary;
  stages: { id: string; name: string }[];
  moving: boolean;
  onMove: (stage: string) => void;
  /** The card is picked up (true) or let go, dropped or not (false). */
  onDragging: (dragging: boolean) => void;
}) {
  return (
    <li
      className={`pipeline-card${moving ? ' moving' : ''}`}
      draggable
      data-slug={idea.slug}
      onDragStart={(e) => {
        e.dataTransfer.setData(CARD_TYPE, idea.slug);
        e.dataTransfer.effectAllowed = 'move';
        onDragging(true);
      }}
      onDragEnd={() => onDragging(false)}
    >
      <a href={href('idea', idea.slug)} draggable={false}>
        {idea.title}
      </a>
      <div className="row small">
        {idea.type && <span className="muted">{idea.type}</span>}
        {idea.overallScore !== null && <span className="badge">{score(idea.overallScore)}</span>}
        {idea.stale && <span className="badge warn">stale</span>}
      </div>
      {/* The keyboard way to move a card: its stage as a list. */}
      <StageSelect idea={idea} stages={stages} onMove={onMove} />
    </li>
  );
}

/**
 * Ideas by lifecycle stage as a board (the taxonomy's stages, in order). Dragging a card to another
 * column, or picking a stage in its list, moves the idea: `ideas:setStage` edits only the `stage:`
 * and `updated:` lines of its README.
 */
export function PipelineView({ route }: { route: Route }) {
  void route;
  const client = useClient();
  const ideas = useChannel('ideas:list', {});
  const taxonomy = useChannel('taxonomy:get', {});
  const [filter, setFilter] = useState('');
  const [over, setOver] = useState<string | null>(null);
  // A card is being dragged: every stage is a place to drop it, the empty ones included.
  const [dragging, setDragging] = useState(false);
  const [showEmpty, setShowEmpty] = useState(false);
  // Cards shown per stage beyond the first FIRST_CARDS (the researcher asked for more).
  const [shownPer, setShownPer] = useState<Map<string, number>>(new Map());
  // Moves shown at once, before the main side confirms; dropped when the list reloads or a move fails.
  const [pending, setPending] = useState<Map<string, string>>(new Map());
  const [notice, setNotice] = useState<string | null>(null);
  usePush('sync:changed', () => ideas.reload());

  const move = useAction(async (slug: string, stage: string) => {
    setPending((p) => new Map(p).set(slug, stage));
    try {
      const result = await client.invoke('ideas:setStage', { slug, stage });
      setNotice(
        result.conflict
          ? `${slug}: the README changed on disk meanwhile; yours is kept and the app’s version is ${result.path}.`
          : `${result.idea?.title ?? slug} → ${stage}`,
      );
      ideas.reload();
    } catch (error) {
      // The card goes back where it was, and the error says why.
      setPending((p) => {
        const next = new Map(p);
        next.delete(slug);
        return next;
      });
      throw error;
    }
  });
  // A move stays shown as pending until the reloaded list agrees with it (no flicker back).
  useEffect(() => {
    const list = ideas.data?.ideas;
    if (!list) return;
    setPending((p) => {
      if (p.size === 0) return p;
      const stageOf = new Map(list.map((i) => [i.slug, i.stage]));
      const next = new Map([...p].filter(([slug, stage]) => stageOf.get(slug) !== stage));
      return next.size === p.size ? p : next;
    });
  }, [ideas.data]);

  const stages = taxonomy.data?.stages ?? [];
  const columns = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    const byStage = new Map<string, IdeaSummary[]>(stages.map((s) => [s.id, []]));
    for (const idea of ideas.data?.ideas ?? []) {
      if (words.length > 0) {
        const text = `${idea.title} ${idea.slug} ${idea.tags.join(' ')} ${idea.type ?? ''}`.toLowerCase();
        if (!words.every((w) => text.includes(w))) continue;
      }
      const stage = pending.get(idea.slug) ?? idea.stage;
      const shown = pending.has(idea.slug) ? { ...idea, stage } : idea;
      if (!byStage.has(stage)) byStage.set(stage, []);
      byStage.get(stage)?.push(shown);
    }
    // Dates are ISO text: compared as text (a locale-aware comparison of 10,000 took ~100 ms).
    const newer = (a: IdeaSummary, b: IdeaSummary) => {
      const x = a.updated ?? '';
      const y = b.updated ?? '';
      return x < y ? 1 : x > y ? -1 : 0;
    };
    for (const list of byStage.values()) list.sort(newer);
    return byStage;
  }, [ideas.data, stages, filter, pending]);
  const empty = stages.filter((s) => (columns.get(s.id) ?? []).length === 0);
  const shownStages = showEmpty || dragging ? stages : stages.filter((s) => (columns.get(s.id) ?? []).length > 0);

  return (
    <section className="view pipeline">
      <header className="row">
        <h1>Pipeline</h1>
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter cards (title, tag, type)…"
          aria-label="Filter cards"
        />
        <span className="muted small">Drag a card to another stage, or pick its stage in the card’s list.</span>
        {empty.length > 0 && (
          <label className="small">
            <input type="checkbox" checked={showEmpty} onChange={(e) => setShowEmpty(e.target.checked)} /> Show the{' '}
            {empty.length} empty {empty.length === 1 ? 'stage' : 'stages'}
            {!showEmpty && ` (${empty.map((s) => s.name).join(', ')})`}
          </label>
        )}
        {notice && (
          <span role="status" className="small">
            {notice}
          </span>
        )}
      </header>
      <PipelinePanel />
      <ErrorNotice error={move.error} onDismiss={move.clearError} />
      <ErrorNotice error={ideas.error ?? taxonomy.error} />
      {ideas.data && taxonomy.data && ideas.data.ideas.length === 0 && (
        <p className="muted">
          No ideas yet: capture one in the <a href={href('library')}>library</a>.
        </p>
      )}
      <div className="pipeline-board">
        {shownStages.map((stage) => {
          const cards = columns.get(stage.id) ?? [];
          const limit = shownPer.get(stage.id) ?? FIRST_CARDS;
          return (
            <section
              key={stage.id}
              className={`pipeline-column${over === stage.id ? ' over' : ''}${cards.length === 0 ? ' empty' : ''}`}
              aria-label={`${stage.name}: ${cards.length} ideas`}
              data-stage={stage.id}
              onDragOver={(e) => {
                if (!Array.from(e.dataTransfer.types).includes(CARD_TYPE)) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                setOver(stage.id);
              }}
              onDragLeave={(e) => {
                if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(null);
              }}
              onDrop={(e) => {
                const slug = e.dataTransfer.getData(CARD_TYPE);
                setOver(null);
                setDragging(false);
                if (!slug) return;
                e.preventDefault();
                const idea = ideas.data?.ideas.find((i) => i.slug === slug);
                if (idea && (pending.get(slug) ?? idea.stage) !== stage.id) void move.run(slug, stage.id);
              }}
            >
              <h2 title={stage.description}>
                {stage.name} <span className="muted small">{cards.length}</span>
              </h2>
              {stage.phase && <div className="muted small phase">{stage.phase}</div>}
              <ul>
                {cards.slice(0, limit).map((idea) => (
                  <Card
                    key={idea.slug}
                    idea={idea}
                    stages={stages}
                    moving={pending.has(idea.slug)}
                    onMove={(to) => void move.run(idea.slug, to)}
                    onDragging={(on) => {
                      setDragging(on);
                      if (!on) setOver(null);
                    }}
                  />
                ))}
              </ul>
              {cards.length > limit && (
                <p className="muted small pipeline-more">
                  {limit} of {cards.length} shown, most recently updated first{' '}
                  <button
                    type="button"
                    className="small"
                    onClick={() => setShownPer((m) => new Map(m).set(stage.id, limit + MORE_CARDS))}
                  >
                    Show {Math.min(MORE_CARDS, cards.length - limit)} more
                  </button>
                </p>
              )}
              {cards.length === 0 && <p className="muted small">No idea at this stage.</p>}
            </section>
          );
        })}
      </div>
    </section>
  );
}
