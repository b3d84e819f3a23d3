import cytoscape from 'cytoscape';
import { useEffect, useRef, useState } from 'react';
import type { CruxMap } from '../../../../core/contract';
import { personaColours } from '../../ui/persona-colour';
import { cheapLayout, elementsOf, LARGE_MAP, sideEdgesOf, sidesLayout } from './map-elements';
import { registerFcose } from './register-fcose';

/** A fitted map is never drawn larger than this (a map of three nodes would fill the screen). */
const MAX_FIT_ZOOM = 1.2;
/** Elements added per frame when a large map goes in slice by slice. */
const ADD_SLICE = 120;

export type Positions = Record<string, { x: number; y: number }>;

export interface LaidOut {
  /** From handing the elements to cytoscape to the first frame drawn after the layout. */
  ms: number;
  layout: 'sides' | 'fcose' | 'preset' | 'cheap';
  nodes: number;
}

/** The node under the pointer, and where, for the tooltip with its full text. */
interface Hovered {
  text: string;
  x: number;
  y: number;
}

interface Props {
  map: CruxMap;
  selected: string | null;
  onSelect: (id: string | null) => void;
  /** Every node's position, after the researcher dragged one or fcose placed new ones (to keep). */
  onMoved?: (positions: Positions) => void;
  /** Bumped to throw the positions away and lay the map out afresh. */
  relayout: number;
  /** `auto` picks as documented in docs/ui-debates.md; the benchmark route may force one. */
  layout?: 'auto' | 'sides' | 'fcose' | 'cheap';
  onLaidOut?: (info: LaidOut) => void;
}

/**
 * A CSS colour as cytoscape takes it: the page's colours are variables and `light-dark()`, which
 * cytoscape cannot read, so a probe element turns them into the `rgb()` the theme gives now.
 */
function resolveColour(css: string): string {
  const probe = document.createElement('span');
  probe.style.color = css;
  probe.style.display = 'none';
  document.body.append(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  return resolved || '#888';
}

/** Each agent node's colour: its persona's, as everywhere in the app (never a YES/NO or status colour). */
function colourAgents(core: cytoscape.Core): void {
  const cache = new Map<string, string>();
  const agents = core.nodes('[type = "agent"]');
  const colourOf = personaColours(agents.map((n) => String(n.data('persona'))));
  core.batch(() => {
    agents.forEach((n) => {
      const persona = String(n.data('persona'));
      let colour = cache.get(persona);
      if (!colour) {
        colour = resolveColour(colourOf(persona));
        cache.set(persona, colour);
      }
      n.data('colour', colour);
    });
  });
}

/** Fits the map to the canvas, labels included; a small map is kept at about its natural size. */
function fitTo(core: cytoscape.Core): void {
  core.fit(undefined, 30);
  if (core.zoom() > MAX_FIT_ZOOM) {
    core.zoom(MAX_FIT_ZOOM);
    core.center();
  }
}

/**
 * The map's look. Colours mean one thing each, as in the rest of the app: green YES and red NO on
 * the agents' lines only; a crux's state by fill (accent: primary, dark: validated, amber:
 * crystallized but not validated, pale: open, dashed: a deeper crux proposed); agents in their
 * persona's colour; crux-to-crux edges in neutral tones, told apart by arrow and dash and named
 * by their labels.
 */
function stylesheet(large: boolean): cytoscape.StylesheetJson {
  // One computed style for all the colours: each getComputedStyle call may recompute the page's styles.
  const computed = getComputedStyle(document.documentElement);
  const c = (name: string) => computed.getPropertyValue(name).trim() || '#888';
  const edgeLabel = {
    label: large ? '' : 'data(label)',
    'font-size': 9,
    color: c('--fg-muted'),
    'text-background-color': c('--bg-raised'),
    'text-background-opacity': 1,
    'text-background-padding': '3px',
    'text-background-shape': 'round-rectangle',
    'min-zoomed-font-size': 7,
  };
  return [
    {
      selector: 'node',
      style: {
        // Hundreds of wrapped labels cost more to measure and draw than the graph itself: a large
        // map names only agents and the selected node (the list beside it names every one).
        label: large ? '' : 'data(label)',
        color: c('--fg'),
        'font-size': 10,
        'text-wrap': 'wrap',
        'text-max-width': '220px',
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-background-color': c('--bg-raised'),
        'text-background-opacity': 0.8,
        'text-background-padding': '1px',
        'min-zoomed-font-size': large ? 12 : 6,
        'border-width': 1,
        'border-color': c('--border'),
      },
    },
    {
      selector: 'node[type = "crux"]',
      style: {
        width: 'data(size)',
        height: 'data(size)',
        'background-color': c('--bg-sunken'),
        'border-width': 2,
        'border-color': c('--fg-muted'),
      },
    },
    {
      selector: 'node[look = "primary"]',
      style: { 'background-color': c('--accent'), 'border-width': 4, 'border-color': c('--fg') },
    },
    { selector: 'node[look = "validated"]', style: { 'background-color': c('--fg'), 'border-color': c('--fg') } },
    { selector: 'node[look = "unvalidated"]', style: { 'background-color': c('--warn'), 'border-color': c('--warn') } },
    {
      selector: 'node[look = "candidate"]',
      style: {
        'background-color': c('--bg-raised'),
        'border-style': 'dashed',
        'border-width': 2,
        'border-color': c('--fg-muted'),
      },
    },
    {
      selector: 'node[type = "agent"]',
      style: {
        shape: 'round-rectangle',
        width: 26,
        height: 26,
        'background-color': 'data(colour)',
        'border-color': 'data(colour)',
        'border-width': 3,
        'text-valign': 'center',
        'text-halign': 'right',
        'text-margin-x': 6,
        'text-margin-y': 0,
        'font-weight': 'bold',
        'text-max-width': '140px',
      },
    },
    // Labels on the outer side of each column, away from the lines that leave toward the cruxes.
    { selector: 'node[type = "agent"][lean = "YES"]', style: { 'text-halign': 'left', 'text-margin-x': -6 } },
    {
      selector: 'node[type = "agent"][lean = "UNCERTAIN"]',
      style: { 'text-halign': 'center', 'text-valign': 'bottom', 'text-margin-x': 0, 'text-margin-y': 6 },
    },
    { selector: 'node[type = "agent"], node:selected', style: { label: 'data(label)' } },
    {
      // The label stays as it is (the whole question unless it is very long; the side panel and the
      // tooltip hold all of it): a label that changes size on selection was drawn clipped.
      selector: 'node:selected',
      style: {
        'z-index': 10,
        'overlay-color': c('--focus'),
        'overlay-opacity': 0.25,
        'overlay-padding': 6,
      },
    },
    {
      selector: 'edge',
      style: {
        width: 1.5,
        'curve-style': large ? 'haystack' : 'bezier',
        'line-color': c('--border'),
        ...edgeLabel,
      },
    },
    { selector: 'edge[side = "YES"]', style: { 'line-color': c('--ok') } },
    { selector: 'edge[side = "NO"]', style: { 'line-color': c('--danger') } },
    { selector: 'edge[side = "UNCERTAIN"]', style: { 'line-style': 'dotted', 'line-color': c('--fg-muted') } },
    {
      selector: 'edge[type = "dependency"]',
      style: {
        width: 2.5,
        'line-color': c('--fg-muted'),
        // The edge runs from the deeper crux to the one resting on it; the arrow points at the
        // deeper one, so it reads "X rests on → Y".
        'source-arrow-shape': 'triangle',
        'source-arrow-color': c('--fg-muted'),
        'curve-style': 'bezier',
      },
    },
    {
      selector: 'edge[type = "contradiction"]',
      style: {
        width: 2.5,
        'line-style': 'dashed',
        'line-color': c('--fg'),
        'source-arrow-shape': 'tee',
        'target-arrow-shape': 'tee',
        'source-arrow-color': c('--fg'),
        'target-arrow-color': c('--fg'),
        'curve-style': 'bezier',
      },
    },
  ] as cytoscape.StylesheetJson;
}

/**
 * The crux map drawn by cytoscape. Where nodes go: positions the researcher left are kept; a map
 * with every node placed is drawn as it was (`preset`); a small map with nodes to place is laid out
 * by side (`sidesLayout`: YES agents left, cruxes in the middle, NO agents right, the undecided
 * below, in a box the canvas's size, so the fitted map fills the canvas); a large one (over
 * LARGE_MAP nodes) is placed by `cheapLayout`. (`fcose`, a force layout, is still there for the
 * benchmark route.) Hovering a node shows its full text; a selected node shows it in the graph.
 */
export function CruxGraph({ map, selected, onSelect, onMoved, relayout, layout = 'auto', onLaidOut }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<cytoscape.Core | null>(null);
  const handlers = useRef({ onSelect, onMoved, onLaidOut });
  handlers.current = { onSelect, onMoved, onLaidOut };
  const lastRelayout = useRef(relayout);
  const [hovered, setHovered] = useState<Hovered | null>(null);
  /** The map drawn, for a layout by side done again when the canvas changes size. */
  const drawn = useRef(map);
  /**
   * Whether every node stands where the layout by side put it (nothing dragged, nothing kept from
   * an earlier visit): then a canvas of another size gets the layout afresh rather than a zoom out.
   */
  const bySide = useRef(false);

  // One cytoscape instance for the view's life; its theme follows the page's.
  useEffect(() => {
    if (!container.current) return;
    registerFcose();
    const core = cytoscape({ container: container.current, minZoom: 0.05, maxZoom: 3, wheelSensitivity: 0.3 });
    core.on('tap', 'node', (e) => handlers.current.onSelect(e.target.id()));
    core.on('tap', (e) => {
      if (e.target === core) handlers.current.onSelect(null);
    });
    // The full text of a node under the pointer (a crux's label is cut when long).
    core.on('mouseover', 'node', (e) => {
      const { x, y } = e.target.renderedPosition();
      setHovered({ text: String(e.target.data('full') ?? e.target.data('label') ?? ''), x, y });
    });
    core.on('mouseout', 'node', () => setHovered(null));
    core.on('viewport drag', () => setHovered(null));
    core.on('dragfree', 'node', () => {
      bySide.current = false;
      const positions: Positions = {};
      core.nodes().forEach((n) => {
        positions[n.id()] = { ...n.position() };
      });
      handlers.current.onMoved?.(positions);
    });
    cy.current = core;
    const observer = new MutationObserver(() => {
      core.style(stylesheet(core.nodes().length > LARGE_MAP));
      colourAgents(core);
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    // The side panel opening or the window resizing changes the canvas's size: a map laid out by
    // side is laid out again for the new size, one the researcher arranged is fitted to it, so no
    // side of it is cut off (a panel opening used to hide a column of agents).
    const element = container.current;
    let size = { w: element.clientWidth, h: element.clientHeight };
    const resized = new ResizeObserver(() => {
      const now = { w: element.clientWidth, h: element.clientHeight };
      if (now.w === size.w && now.h === size.h) return;
      size = now;
      core.resize();
      if (core.nodes().empty()) return;
      if (bySide.current) {
        const positions = sidesLayout(drawn.current, { width: now.w, height: now.h });
        core.nodes().positions((n) => positions[n.id()] ?? n.position());
      }
      fitTo(core);
    });
    resized.observe(element);
    return () => {
      observer.disconnect();
      resized.disconnect();
      core.destroy();
      cy.current = null;
    };
  }, []);

  // New data (a first load, a live debate that moved on) or a request to lay out afresh.
  useEffect(() => {
    const core = cy.current;
    if (!core) return;
    const fresh = lastRelayout.current !== relayout;
    lastRelayout.current = relayout;
    const t0 = performance.now();
    const current: Positions = {};
    // Where the nodes stand now counts unless it is only where the layout by side put them (a live
    // map laid out by side is laid out by side again as it grows).
    if (!fresh && !bySide.current)
      core.nodes().forEach((n) => {
        current[n.id()] = { ...n.position() };
      });
    const large = map.cruxes.length + map.agents.length > LARGE_MAP;
    const elements = elementsOf(map, !large);
    const ids = elements.filter((e) => e.group === 'nodes').map((e) => e.data.id as string);
    const known: Positions = { ...(fresh ? {} : (map.layout?.positions ?? {})), ...current };
    const placed = ids.filter((id) => known[id]);
    drawn.current = map;

    let chosen: LaidOut['layout'];
    let options: cytoscape.LayoutOptions;
    let preset: Positions | null = null;
    const element = container.current;
    if (layout === 'sides' || (layout === 'auto' && !large && placed.length < ids.length)) {
      const base = sidesLayout(map, { width: element?.clientWidth ?? 800, height: element?.clientHeight ?? 500 });
      chosen = 'sides';
      bySide.current = placed.length === 0;
      const positions = Object.fromEntries(ids.map((id) => [id, known[id] ?? base[id] ?? { x: 0, y: 0 }]));
      preset = positions;
      options = { name: 'preset', positions, fit: true, padding: 30 };
    } else if (layout === 'cheap' || (layout === 'auto' && large)) {
      const base = cheapLayout(map);
      chosen = 'cheap';
      bySide.current = false;
      const positions = Object.fromEntries(ids.map((id) => [id, known[id] ?? base[id] ?? { x: 0, y: 0 }]));
      preset = positions;
      options = { name: 'preset', positions, fit: true, padding: 30 };
    } else if (layout === 'auto' && placed.length === ids.length && ids.length > 0) {
      chosen = 'preset';
      bySide.current = false;
      const positions = Object.fromEntries(ids.map((id) => [id, known[id] ?? { x: 0, y: 0 }]));
      preset = positions;
      options = { name: 'preset', positions, fit: true, padding: 30 };
    } else {
      chosen = 'fcose';
      bySide.current = false;
      options = {
        name: 'fcose',
        animate: false,
        randomize: placed.length === 0,
        quality: 'default',
        nodeRepulsion: 9000,
        idealEdgeLength: 110,
        nodeSeparation: 90,
        packComponents: true,
        fit: true,
        padding: 30,
        ...(placed.length > 0 && placed.length < ids.length
          ? { fixedNodeConstraint: placed.map((id) => ({ nodeId: id, position: known[id] })) }
          : {}),
      } as cytoscape.LayoutOptions;
    }

    // The style first: applying it to nodes already added would compute every node's style twice.
    core.style(stylesheet(large));
    setHovered(null);
    const toAdd = elements.map((e) => {
      const at = (preset ?? known)[e.data.id as string];
      return { group: e.group, data: e.data, ...(e.group === 'nodes' && at ? { position: { ...at } } : {}) };
    });
    const layOut = () => {
      const run = core.layout(options);
      run.one('layoutstop', () => {
        fitTo(core);
        if (element) element.dataset.layout = chosen;
        requestAnimationFrame(() =>
          handlers.current.onLaidOut?.({ ms: performance.now() - t0, layout: chosen, nodes: ids.length }),
        );
        // A force layout's positions are kept (it would place the nodes elsewhere next time); the
        // layout by side gives the same places every time, so only what the researcher moves is.
        // Nodes a live debate added to an arranged map are kept with the rest.
        // "Lay out afresh" on an arranged map replaces the arrangement kept beside the log.
        if (chosen === 'fcose' || (chosen === 'sides' && (!bySide.current || (fresh && map.layout !== null)))) {
          const positions: Positions = {};
          core.nodes().forEach((n) => {
            positions[n.id()] = { ...n.position() };
          });
          handlers.current.onMoved?.(positions);
        }
      });
      run.run();
    };
    core.batch(() => {
      core.elements().remove();
    });
    if (preset === null || toAdd.length <= ADD_SLICE) {
      core.batch(() => {
        core.add(toAdd);
      });
      colourAgents(core);
      layOut();
      return;
    }
    // A large map is placed beforehand (preset), so it can go in slice by slice, a frame apart,
    // fitted to the canvas once: adding and styling a thousand elements at once would hold the page
    // (clicks, keys, scrolling) for a third of a second. Nodes first, so every edge finds its ends.
    const sorted = [...toAdd.filter((e) => e.group === 'nodes'), ...toAdd.filter((e) => e.group !== 'nodes')];
    let cancelled = false;
    let frame = 0;
    let next = 0;
    const addSlice = () => {
      if (cancelled || core.destroyed()) return;
      const slice = sorted.slice(next, next + ADD_SLICE);
      next += slice.length;
      core.batch(() => {
        core.add(slice);
      });
      if (next === slice.length) core.fit(undefined, 30);
      if (next < sorted.length) frame = requestAnimationFrame(addSlice);
      else {
        colourAgents(core);
        layOut();
      }
    };
    addSlice();
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
    };
  }, [map, relayout, layout]);

  // The selection follows the list beside the graph as well as clicks on it.
  useEffect(() => {
    const core = cy.current;
    if (!core) return;
    core.$(':selected').unselect();
    // A large map draws agents' sides for the selected node only (thousands of lines would hide
    // the graph, and cost seconds to draw).
    if (core.nodes().length > LARGE_MAP) {
      core.edges('.transient').remove();
      if (selected) core.add(sideEdgesOf(map, selected).map((e) => ({ ...e, classes: 'transient' })));
    }
    // A picked node's full label may reach past the canvas's edge: bring all of it into view.
    const fits = (node: cytoscape.NodeSingular) => {
      const box = node.renderedBoundingBox({ includeLabels: true });
      return box.x1 >= 0 && box.y1 >= 0 && box.x2 <= core.width() && box.y2 <= core.height();
    };
    if (!selected) return;
    const node = core.$id(selected);
    if (node.nonempty()) {
      node.select();
      if (!fits(node)) core.center(node);
    }
    // The map's data too: a reload re-adds the nodes, and the selection goes with the old ones.
  }, [selected, map]);

  return (
    <div className="crux-graph-wrap">
      <div
        ref={container}
        className="crux-graph"
        role="img"
        aria-label="Crux map graph (use the list beside it to move through the nodes)"
        data-testid="crux-graph"
      />
      {hovered && (
        <div
          className="crux-tooltip"
          role="tooltip"
          data-testid="crux-tooltip"
          style={{ left: hovered.x, top: hovered.y }}
        >
          {hovered.text}
        </div>
      )}
    </div>
  );
}
