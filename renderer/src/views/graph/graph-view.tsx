import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { IdeaSummary } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { cssVar } from '../../theme';
import { ErrorNotice } from '../../ui/error-notice';
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
/** Past this many ideas, fcose's layout takes seconds: a grid is drawn instead. */
const FORCE_LAYOUT_LIMIT = 1500;

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

/**
 * Ideas and their relationships (parent, child, related, combines, conflicts, inspired_by) in
 * cytoscape with the fcose layout; clicking an idea opens it. The table below is the same graph
 * for the keyboard and for screen readers.
 */
export function GraphView({ route }: { route: Route }) {
  const focus = route.query.get('focus');
  const ideas = useChannel('ideas:list', {});
  const rels = useChannel('ideas:relationships', {});
  const taxonomy = useChannel('taxonomy:get', {});
  usePush('sync:changed', () => {
    ideas.reload();
    rels.reload();
  });
  const [shownTypes, setShownTypes] = useState<Set<string>>(new Set(TYPES.map((t) => t.id)));
  const [showLonely, setShowLonely] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const [layoutMs, setLayoutMs] = useState<number | null>(null);

  // Ideas are coloured by the phase of their stage (explore, shape, build …), from the taxonomy.
  const phases = useMemo(() => {
    const stages = taxonomy.data?.stages ?? [];
    const order = [...new Set(stages.map((st) => st.phase ?? 'other'))];
    const ofStage = new Map(stages.map((st) => [st.id, st.phase ?? 'other']));
    return { order, ofStage, colour: (phase: string) => `--cat-${(order.indexOf(phase) % 6) + 1}` };
  }, [taxonomy.data]);

  const graph = useMemo(() => {
    const all = ideas.data?.ideas ?? [];
    const bySlug = new Map(all.map((i) => [i.slug, i]));
    // A type outside the taxonomy's list is always shown (nothing to untick it with).
    const edges = edgesOf(rels.data?.relationships ?? []).filter(
      (e) => shownTypes.has(e.type) || !TYPES.some((t) => t.id === e.type),
    );
    const linked = new Set(edges.flatMap((e) => [e.source, e.target]));
    const nodes: { slug: string; idea: IdeaSummary | null }[] = [];
    for (const idea of all)
      if (showLonely || linked.has(idea.slug) || idea.slug === focus) nodes.push({ slug: idea.slug, idea });
    // A relationship may name an idea that is not in the library (renamed, not yet written).
    for (const slug of linked) if (!bySlug.has(slug)) nodes.push({ slug, idea: null });
    const lonely = all.filter((i) => !linked.has(i.slug)).length;
    return { nodes, edges, bySlug, lonely };
  }, [ideas.data, rels.data, shownTypes, showLonely, focus]);

  useEffect(() => {
    const container = box.current;
    if (!container || (!ideas.data && !rels.data)) return;
    const colour = (name: string) => cssVar(name) || '#888';
    const started = performance.now();
    const cy = cytoscape({
      container,
      elements: [
        ...graph.nodes.map((n) => ({
          data: {
            id: n.slug,
            label: n.idea ? short(n.idea.title) : `${n.slug} (missing)`,
            missing: n.idea ? 0 : 1,
            colour: colour(phases.colour(phases.ofStage.get(n.idea?.stage ?? '') ?? 'other')),
            focus: n.slug === focus ? 1 : 0,
          },
        })),
        ...graph.edges.map((e) => ({
          data: { id: e.id, source: e.source, target: e.target, type: e.type, width: 1 + 3 * (e.strength ?? 0.3) },
        })),
      ],
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
            'text-valign': 'bottom',
            'text-margin-y': 4,
            width: 18,
            height: 18,
            'text-wrap': 'ellipsis',
            'text-max-width': '160px',
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
      layout:
        graph.nodes.length <= FORCE_LAYOUT_LIMIT
          ? ({
              name: 'fcose',
              animate: false,
              randomize: true,
              nodeRepulsion: 6000,
              idealEdgeLength: 90,
            } as cytoscape.LayoutOptions)
          : { name: 'grid' },
      wheelSensitivity: 0.3,
    });
    setLayoutMs(Math.round(performance.now() - started));
    cy.on('tap', 'node', (event) => {
      const node = event.target as cytoscape.NodeSingular;
      if (node.data('missing') !== 1) navigate(href('idea', node.id()));
    });
    if (focus) {
      const node = cy.getElementById(focus);
      if (node.nonempty()) cy.center(node);
    }
    return () => cy.destroy();
  }, [graph, focus, ideas.data, rels.data, phases]);

  const title = (slug: string) => graph.bySlug.get(slug)?.title ?? `${slug} (missing)`;

  return (
    <section className="view graph">
      <header className="row">
        <h1>Graph</h1>
        <span className="muted small">
          {graph.nodes.length} ideas, {graph.edges.length} relationships
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
      <div
        ref={box}
        className="graph-canvas"
        role="img"
        aria-label="Graph of ideas and their relationships; the table below lists the same"
      />
      <h2>As a list</h2>
      {graph.edges.length === 0 ? (
        <p className="muted">
          No relationships yet. The classify agent adds them, or write them in a README’s <code>relationships:</code>.
        </p>
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
            {graph.edges.map((e) => (
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
