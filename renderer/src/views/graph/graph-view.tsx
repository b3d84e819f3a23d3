import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { cssVar } from '../../theme';
import { ErrorNotice } from '../../ui/error-notice';
import { ClassifyAll } from './classify-all';
import {
  type ClusterEdge,
  clusterGraph,
  DRAWN_LIMIT,
  edgesAmong,
  type GroupBy,
  groupOf,
  MISSING_GROUP,
  mostLinked,
  neighbourhood,
} from './graph-model';
import './graph.css';

// Registered once per page, whichever view (this or the crux map) loads first.
if (!cytoscape('layout', 'fcose')) cytoscape.use(fcose);

/** The relationship types of the taxonomy, their colour and whether they have a direction. */
const TYPES: { id: string; label: string; colour: string; directed: boolean }[] = [
  { id: 'parent', label: 'parent of', colour: '--cat-1', directed: true },
  { id: 'child', label: 'child of', colour: '--cat-6', directed: true },
  { id: 'related', label: 'related', colour: '--fg-muted', directed: false },
  { id: 'combines', label: 'combines', colour: '--cat-3', directed: true },
  { id: 'conflicts', label: 'conflicts', colour: '--danger', directed: false },
  { id: 'inspired_by', label: 'inspired by', colour: '--cat-5', directed: true },
];
interface Edge {
  id: string;
  source: string;
  target: string;
  type: string;
  strength: number | null;
  reason: string | null;
}

/** One edge per pair and type: "A conflicts with B" written in both READMEs is one conflict. */
function edgesOf(rows: Omit<Edge, 'id'>[]): Edge[] {
  const seen = new Map<string, Edge>();
  for (const r of rows) {
    const directed = TYPES.find((t) => t.id === r.type)?.directed ?? true;
    const [a, b] = directed ? [r.source, r.target] : [r.source, r.target].sort();
    const id = `${a}|${r.type}|${b}`;
    if (!seen.has(id)) seen.set(id, { ...r, id, source: a as string, target: b as string });
  }
  return [...seen.values()];
}

function short(text: string, max = 38): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What is drawn: every idea shown, the groups of a large library, one group, or one idea's surroundings. */
type Drawing =
  | { mode: 'ideas'; slugs: string[]; edges: Edge[]; note: string | null }
  | { mode: 'groups'; clusters: { id: string; size: number; inside: number }[]; edges: ClusterEdge[] };

/**
 * Ideas and their relationships (parent, child, related, combines, conflicts, inspired_by) in
 * cytoscape with the fcose layout; clicking an idea opens it. Past DRAWN_LIMIT ideas the library is
 * drawn as groups (by stage or type, with the links between groups counted); a group opens on a
 * click, and "Find an idea" draws one idea with its neighbours. An empty graph says why, with the
 * classify agent's button. The table below is the same drawing for the keyboard and screen readers.
 */
export function GraphView({ route }: { route: Route }) {
  const focus = route.query.get('focus');
  const openGroup = route.query.get('group');
  const by: GroupBy = route.query.get('by') === 'type' ? 'type' : 'stage';
  const ideas = useChannel('ideas:list', {});
  const rels = useChannel('ideas:relationships', {});
  const taxonomy = useChannel('taxonomy:get', {});
  usePush('sync:changed', () => {
    ideas.reload();
    rels.reload();
  });
  const [shownTypes, setShownTypes] = useState<Set<string>>(new Set(TYPES.map((t) => t.id)));
  const [showLonely, setShowLonely] = useState(false);
  const [find, setFind] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const [layoutMs, setLayoutMs] = useState<number | null>(null);

  // Ideas are coloured by the phase of their stage (explore, shape, build …), from the taxonomy.
  const phases = useMemo(() => {
    const stages = taxonomy.data?.stages ?? [];
    const order = [...new Set(stages.map((st) => st.phase ?? 'other'))];
    const ofStage = new Map(stages.map((st) => [st.id, st.phase ?? 'other']));
    return { order, ofStage, colour: (phase: string) => `--cat-${(order.indexOf(phase) % 6) + 1}` };
  }, [taxonomy.data]);
  const stageNames = useMemo(
    () => new Map((taxonomy.data?.stages ?? []).map((st) => [st.id, st.name])),
    [taxonomy.data],
  );
  const groupName = (id: string) => (by === 'stage' ? (stageNames.get(id) ?? id) : id);

  const graph = useMemo(() => {
    const all = ideas.data?.ideas ?? [];
    const bySlug = new Map(all.map((i) => [i.slug, i]));
    // A type outside the taxonomy's list is always shown (nothing to untick it with).
    const edges = edgesOf(rels.data?.relationships ?? []).filter(
      (e) => shownTypes.has(e.type) || !TYPES.some((t) => t.id === e.type),
    );
    const linked = new Set(edges.flatMap((e) => [e.source, e.target]));
    const slugs: string[] = [];
    for (const idea of all) if (showLonely || linked.has(idea.slug) || idea.slug === focus) slugs.push(idea.slug);
    // A relationship may name an idea that is not in the library (renamed, not yet written).
    for (const slug of linked) if (!bySlug.has(slug)) slugs.push(slug);
    const lonely = all.filter((i) => !linked.has(i.slug)).length;
    return { slugs, edges, bySlug, lonely, total: all.length };
  }, [ideas.data, rels.data, shownTypes, showLonely, focus]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: groupName only reads stageNames and by, listed
  const drawing = useMemo<Drawing>(() => {
    const { slugs, edges, bySlug } = graph;
    if (slugs.length <= DRAWN_LIMIT) return { mode: 'ideas', slugs, edges, note: null };
    if (focus && (bySlug.has(focus) || slugs.includes(focus))) {
      const near = neighbourhood(focus, edges, DRAWN_LIMIT);
      const kept = new Set(near);
      return {
        mode: 'ideas',
        slugs: near,
        edges: edgesAmong(edges, kept),
        note: `“${bySlug.get(focus)?.title ?? focus}” and the ideas within two links of it (${near.length}${near.length >= DRAWN_LIMIT ? `, the nearest ${DRAWN_LIMIT}` : ''}).`,
      };
    }
    if (openGroup !== null) {
      const members = slugs.filter((slug) => groupOf(bySlug.get(slug), by) === openGroup);
      const kept = mostLinked(members, edges, DRAWN_LIMIT);
      return {
        mode: 'ideas',
        slugs: kept,
        edges: edgesAmong(edges, new Set(kept)),
        note:
          members.length > kept.length
            ? `${groupName(openGroup)}: the ${kept.length} most connected of its ${members.length} ideas, with the links between them.`
            : `${groupName(openGroup)}: its ${members.length} ideas and the links between them.`,
      };
    }
    const order = by === 'stage' ? (taxonomy.data?.stages ?? []).map((st) => st.id) : [];
    return { mode: 'groups', ...clusterGraph(slugs, edges, bySlug, by, order) };
  }, [graph, focus, openGroup, by, taxonomy.data, stageNames]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: groupName only reads stageNames and by, listed
  useEffect(() => {
    const container = box.current;
    if (!container || (!ideas.data && !rels.data)) return;
    delete container.dataset.laidOut;
    const colour = (name: string) => cssVar(name) || '#888';
    // The wheel zooms by the distance it turned, as maps do (one notch of a mouse about 15 %, a
    // trackpad's small steps smoothly). Cytoscape's own handler takes a mouse's equal notches for
    // an imprecise device and moves about 3 % a notch, so this one runs first (registered before
    // cytoscape's on the same element and phase) and stops it; touch pinching stays cytoscape's.
    let wheeled: cytoscape.Core | null = null;
    const onWheel = (event: WheelEvent) => {
      if (!wheeled || event.deltaY === 0) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const unit = event.deltaMode === 1 ? 0.05 : event.deltaMode === 2 ? 1 : 0.002;
      const rect = container.getBoundingClientRect();
      wheeled.zoom({
        level: wheeled.zoom() * 2 ** (-event.deltaY * unit * (event.ctrlKey ? 10 : 1)),
        renderedPosition: { x: event.clientX - rect.left, y: event.clientY - rect.top },
      });
    };
    container.addEventListener('wheel', onWheel, { capture: true, passive: false });
    const started = performance.now();
    const elements: cytoscape.ElementDefinition[] =
      drawing.mode === 'ideas'
        ? [
            ...drawing.slugs.map((slug) => {
              const idea = graph.bySlug.get(slug);
              return {
                data: {
                  id: slug,
                  label: idea ? short(idea.title) : `${slug} (missing)`,
                  missing: idea ? 0 : 1,
                  colour: colour(phases.colour(phases.ofStage.get(idea?.stage ?? '') ?? 'other')),
                  focus: slug === focus ? 1 : 0,
                },
              };
            }),
            ...drawing.edges.map((e) => ({
              data: { id: e.id, source: e.source, target: e.target, type: e.type, width: 1 + 3 * (e.strength ?? 0.3) },
            })),
          ]
        : [
            ...drawing.clusters.map((c, i) => {
              // Around an ellipse the canvas's shape, each name on the outer side of its dot, so
              // neighbours' names do not run into each other.
              const angle = -Math.PI / 2 + (2 * Math.PI * i) / drawing.clusters.length;
              const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
              const side = Math.abs(cos) < 0.25;
              return {
                data: {
                  id: `group:${c.id}`,
                  group: c.id,
                  label: `${c.id === MISSING_GROUP ? 'missing ideas' : short(groupName(c.id), 28)}\n${c.size} ideas`,
                  size: 16 + 2.5 * Math.sqrt(c.size),
                  missing: c.id === MISSING_GROUP ? 1 : 0,
                  colour: colour(by === 'stage' ? phases.colour(phases.ofStage.get(c.id) ?? 'other') : '--cat-1'),
                  halign: side ? 'center' : cos > 0 ? 'right' : 'left',
                  valign: side ? (sin < 0 ? 'top' : 'bottom') : 'center',
                },
                position: {
                  x: cos * Math.max(220, container.clientWidth / 2 - 190),
                  y: sin * Math.max(150, container.clientHeight / 2 - 60),
                },
              };
            }),
            // How many links a line stands for is its width; the exact counts are in the table below
            // (19 groups are joined by up to 171 lines, whose numbers would cover each other).
            ...drawing.edges.map((e) => ({
              data: {
                id: `groups:${e.id}`,
                source: `group:${e.source}`,
                target: `group:${e.target}`,
                width: Math.min(10, 0.5 + Math.log2(1 + e.count)),
                between: 1,
              },
            })),
          ];
    const cy = cytoscape({
      container,
      elements,
      style: [
        {
          selector: 'node',
          style: {
            label: 'data(label)',
            'background-color': 'data(colour)',
            color: colour('--fg'),
            'text-background-color': colour('--bg-raised'),
            'text-background-opacity': 0.85,
            'text-background-padding': '2px',
            'font-size': 11,
            // Labels too small to read are not drawn: a zoomed-out drawing is dots, not a smear.
            'min-zoomed-font-size': 7,
            'text-valign': 'bottom',
            'text-margin-y': 4,
            width: 18,
            height: 18,
            'text-wrap': 'ellipsis',
            'text-max-width': '160px',
          },
        },
        {
          selector: 'node[size]',
          // A group's name is always drawn: there are at most a few dozen.
          style: {
            width: 'data(size)',
            height: 'data(size)',
            'text-wrap': 'wrap',
            'text-max-width': '200px',
            'font-size': 13,
            'min-zoomed-font-size': 0,
            'text-halign': 'data(halign)',
            'text-valign': 'data(valign)',
            'text-margin-x': 0,
            'text-margin-y': 0,
          },
        },
        {
          selector: 'node[missing = 1]',
          style: {
            'background-color': colour('--bg-sunken'),
            'border-style': 'dashed',
            'border-width': 2,
            'border-color': colour('--fg-muted'),
          },
        },
        {
          selector: 'node[focus = 1]',
          style: { 'border-width': 4, 'border-color': colour('--warn'), width: 26, height: 26 },
        },
        {
          selector: 'edge',
          style: { width: 'data(width)', 'curve-style': 'bezier', 'line-color': colour('--fg-muted'), opacity: 0.85 },
        },
        { selector: 'edge[between = 1]', style: { opacity: 0.4 } },
        ...TYPES.map((t) => ({
          selector: `edge[type = "${t.id}"]`,
          style: {
            'line-color': colour(t.colour),
            'target-arrow-color': colour(t.colour),
            'target-arrow-shape': t.directed ? 'triangle' : 'none',
            ...(t.id === 'conflicts' ? { 'line-style': 'dashed' } : {}),
          },
        })),
      ] as cytoscape.StylesheetJson,
      // Groups around an ellipse in the taxonomy's order (every group is linked to most others,
      // which a force layout piles up in the middle); ideas by fcose.
      layout:
        drawing.mode === 'groups'
          ? { name: 'preset', fit: true, padding: 30 }
          : ({
              name: 'fcose',
              animate: false,
              randomize: true,
              nodeRepulsion: 6000,
              idealEdgeLength: 90,
            } as cytoscape.LayoutOptions),
    });
    const ms = Math.round(performance.now() - started);
    setLayoutMs(ms);
    container.dataset.laidOut = String(ms);
    wheeled = cy;
    cy.on('tap', 'node', (event) => {
      const node = event.target as cytoscape.NodeSingular;
      const group = node.data('group') as string | undefined;
      if (group !== undefined) navigate(href('graph', { by, group }));
      else if (node.data('missing') !== 1) navigate(href('idea', node.id()));
    });
    if (focus) {
      const node = cy.getElementById(focus);
      if (node.nonempty()) cy.center(node);
    }
    return () => {
      container.removeEventListener('wheel', onWheel, { capture: true });
      cy.destroy();
    };
  }, [drawing, focus, ideas.data, rels.data, phases, graph.bySlug, by, stageNames]);

  const title = (slug: string) => graph.bySlug.get(slug)?.title ?? `${slug} (missing)`;
  const matches = useMemo(() => {
    const words = find.trim().toLowerCase();
    if (words === '') return [];
    return (ideas.data?.ideas ?? []).filter((i) => i.title.toLowerCase().includes(words)).slice(0, 8);
  }, [find, ideas.data]);
  const loaded = ideas.data !== null && rels.data !== null;
  const empty = loaded && graph.slugs.length === 0;
  const large = graph.slugs.length > DRAWN_LIMIT;
  const drawnEdges = drawing.mode === 'ideas' ? drawing.edges : [];

  return (
    <section className="view graph">
      <header className="row">
        <h1>Graph</h1>
        <span className="muted small" data-testid="graph-count">
          {graph.slugs.length} ideas, {graph.edges.length} relationships
          {drawing.mode === 'groups' && ` · drawn as ${drawing.clusters.length} groups`}
          {drawing.mode === 'ideas' && large && ` · ${drawing.slugs.length} drawn`}
          {layoutMs !== null && ` · laid out in ${layoutMs} ms`}
        </span>
      </header>
      <fieldset className="row graph-legend" aria-label="Relationship types">
        {TYPES.map((t) => (
          <label key={t.id}>
            <input
              type="checkbox"
              checked={shownTypes.has(t.id)}
              onChange={(e) =>
                setShownTypes((s) => {
                  const next = new Set(s);
                  if (e.target.checked) next.add(t.id);
                  else next.delete(t.id);
                  return next;
                })
              }
            />
            <span className="swatch" style={{ background: `var(${t.colour})` }} /> {t.label}
          </label>
        ))}
        <label>
          <input type="checkbox" checked={showLonely} onChange={(e) => setShowLonely(e.target.checked)} /> Show the{' '}
          {graph.lonely} ideas without relationships
        </label>
      </fieldset>
      {large && (
        <div className="row graph-scale" data-testid="graph-scale">
          <p className="small grow">
            {drawing.mode === 'groups'
              ? `${graph.slugs.length} ideas are too many to draw one by one (past ${DRAWN_LIMIT} the labels cover each other): they are drawn as groups, with the relationships between groups counted. Click a group to open it, or find an idea.`
              : drawing.note}{' '}
            {drawing.mode === 'ideas' && <a href={href('graph', { by })}>Back to the groups</a>}
          </p>
          <label className="small">
            Group by{' '}
            <select
              value={by}
              onChange={(e) => navigate(href('graph', { by: e.target.value === 'type' ? 'type' : undefined }))}
            >
              <option value="stage">stage</option>
              <option value="type">type</option>
            </select>
          </label>
          <div className="graph-find">
            <input
              type="search"
              value={find}
              onChange={(e) => setFind(e.target.value)}
              placeholder="Find an idea…"
              aria-label="Find an idea in the graph"
            />
            {matches.length > 0 && (
              <ul className="graph-matches" aria-label="Ideas found">
                {matches.map((i) => (
                  <li key={i.slug}>
                    <a href={href('graph', { focus: i.slug, by: by === 'type' ? 'type' : undefined })}>{i.title}</a>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
      {phases.order.length > 0 && (
        <p className="row small graph-phases">
          {phases.order.map((phase) => (
            <span key={phase}>
              <span className="dot" style={{ background: `var(${phases.colour(phase)})` }} /> {phase}
            </span>
          ))}
        </p>
      )}
      <ErrorNotice error={ideas.error ?? rels.error} />
      <div className="graph-frame">
        <div
          ref={box}
          className="graph-canvas"
          role="img"
          aria-label={
            drawing.mode === 'groups'
              ? 'Graph of groups of ideas and the relationships between them; the table below lists the same'
              : 'Graph of ideas and their relationships; the table below lists the same'
          }
        />
        {empty && (
          <div className="graph-empty card stack" data-testid="graph-empty">
            <strong>
              {graph.total === 0
                ? 'No ideas yet: capture one in the library.'
                : `None of the ${graph.total} ideas is linked to another yet${graph.edges.length === 0 && shownTypes.size < TYPES.length ? ' (or the ticked types hide every link)' : ''}.`}
            </strong>
            {graph.total > 0 && (
              <>
                <p className="small">
                  Links come from the classify agent, or from a README’s <code>relationships:</code> list.{' '}
                  <button type="button" className="link" onClick={() => setShowLonely(true)}>
                    Show the ideas anyway
                  </button>
                </p>
                <ClassifyAll
                  slugs={(ideas.data?.ideas ?? []).map((i) => i.slug)}
                  onDone={() => {
                    ideas.reload();
                    rels.reload();
                  }}
                />
              </>
            )}
          </div>
        )}
      </div>
      <h2>As a list</h2>
      {drawing.mode === 'groups' ? (
        <table className="data graph-table" aria-label="Relationships between groups">
          <thead>
            <tr>
              <th>Group</th>
              <th>Group</th>
              <th className="num">Relationships</th>
            </tr>
          </thead>
          <tbody>
            {drawing.edges.map((e) => (
              <tr key={e.id}>
                <td>
                  <a href={href('graph', { by, group: e.source })}>{groupName(e.source)}</a>
                </td>
                <td>
                  <a href={href('graph', { by, group: e.target })}>{groupName(e.target)}</a>
                </td>
                <td className="num">{e.count}</td>
              </tr>
            ))}
            {drawing.clusters
              .filter((c) => c.inside > 0)
              .map((c) => (
                <tr key={`inside:${c.id}`}>
                  <td>
                    <a href={href('graph', { by, group: c.id })}>{groupName(c.id)}</a>
                  </td>
                  <td className="muted">the same group</td>
                  <td className="num">{c.inside}</td>
                </tr>
              ))}
          </tbody>
        </table>
      ) : drawnEdges.length === 0 ? (
        <p className="muted">No relationships drawn.</p>
      ) : (
        <table className="data graph-table">
          <thead>
            <tr>
              <th>Idea</th>
              <th>Relationship</th>
              <th>Idea</th>
              <th className="num">Strength</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {drawnEdges.map((e) => (
              <tr key={e.id}>
                <td>
                  {graph.bySlug.has(e.source) ? (
                    <a href={href('idea', e.source)}>{title(e.source)}</a>
                  ) : (
                    title(e.source)
                  )}
                </td>
                <td>{TYPES.find((t) => t.id === e.type)?.label ?? e.type}</td>
                <td>
                  {graph.bySlug.has(e.target) ? (
                    <a href={href('idea', e.target)}>{title(e.target)}</a>
                  ) : (
                    title(e.target)
                  )}
                </td>
                <td className="num">{e.strength === null ? '—' : e.strength.toFixed(1)}</td>
                <td className="muted small">{e.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
