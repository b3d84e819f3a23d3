import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'react';
import type { CruxMap } from '../../../../core/contract';
import { cheapLayout, elementsOf, LARGE_MAP, sideEdgesOf } from './map-elements';
import { registerFcose } from './register-fcose';

/** A fitted map is never drawn larger than this (a map of three nodes would fill the screen). */
const MAX_FIT_ZOOM = 1.2;
/** Elements added per frame when a large map goes in slice by slice. */
const ADD_SLICE = 120;

export type Positions = Record<string, { x: number; y: number }>;

export interface LaidOut {
  /** From handing the elements to cytoscape to the first frame drawn after the layout. */
  ms: number;
  layout: 'fcose' | 'preset' | 'cheap';
  nodes: number;
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
  layout?: 'auto' | 'fcose' | 'cheap';
  onLaidOut?: (info: LaidOut) => void;
}

function stylesheet(large: boolean): cytoscape.StylesheetJson {
  // One computed style for all the colours: each getComputedStyle call may recompute the page's styles.
  const computed = getComputedStyle(document.documentElement);
  const c = (name: string) => computed.getPropertyValue(name).trim() || '#888';
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
        'text-max-width': '150px',
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'min-zoomed-font-size': large ? 12 : 6,
        'border-width': 1,
        'border-color': c('--border'),
      },
    },
    {
      selector: 'node[type = "crux"]',
      style: { width: 'data(size)', height: 'data(size)', 'background-color': c('--fg-muted') },
    },
    {
      selector: 'node[look = "primary"]',
      style: { 'background-color': c('--accent'), 'border-width': 4, 'border-color': c('--fg') },
    },
    { selector: 'node[look = "validated"]', style: { 'background-color': c('--ok') } },
    { selector: 'node[look = "unvalidated"]', style: { 'background-color': c('--warn') } },
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
        'background-color': c('--bg-sunken'),
        'border-width': 3,
        'text-valign': 'center',
        'text-halign': 'right',
        'text-margin-x': 4,
        'text-margin-y': 0,
        'font-weight': 'bold',
      },
    },
    ...[0, 1, 2, 3, 4, 5].map((i) => ({
      selector: `node[type = "agent"][coalition = ${i}]`,
      style: { 'background-color': c(`--cat-${(i % 6) + 1}`), 'border-color': c(`--cat-${(i % 6) + 1}`) },
    })),
    { selector: 'node[type = "agent"], node:selected', style: { label: 'data(label)' } },
    {
      selector: 'node:selected',
      style: { 'overlay-color': c('--focus'), 'overlay-opacity': 0.25, 'overlay-padding': 6 },
    },
    {
      selector: 'edge',
      style: { width: 1.5, 'curve-style': large ? 'haystack' : 'bezier', 'line-color': c('--border'), opacity: 0.9 },
    },
    { selector: 'edge[side = "YES"]', style: { 'line-color': c('--ok') } },
    { selector: 'edge[side = "NO"]', style: { 'line-color': c('--danger') } },
    { selector: 'edge[side = "UNCERTAIN"]', style: { 'line-style': 'dotted', 'line-color': c('--fg-muted') } },
    {
      selector: 'edge[type = "dependency"]',
      style: {
        width: 2.5,
        'line-color': c('--fg-muted'),
        'target-arrow-shape': 'triangle',
        'target-arrow-color': c('--fg-muted'),
        'curve-style': 'bezier',
      },
    },
    {
      selector: 'edge[type = "contradiction"]',
      style: {
        width: 2.5,
        'line-style': 'dashed',
        'line-color': c('--danger'),
        'source-arrow-shape': 'tee',
        'target-arrow-shape': 'tee',
        'source-arrow-color': c('--danger'),
        'target-arrow-color': c('--danger'),
        'curve-style': 'bezier',
      },
    },
  ] as cytoscape.StylesheetJson;
}

/**
 * The crux map drawn by cytoscape. Where nodes go: positions the researcher left are kept; a map
 * with every node placed is drawn as it was (`preset`); a small map with nodes to place runs fcose
 * (keeping placed nodes fixed); a large one (over LARGE_MAP nodes) is placed by `cheapLayout`, since
 * a force layout of hundreds of nodes would hold the page for seconds.
 */
export function CruxGraph({ map, selected, onSelect, onMoved, relayout, layout = 'auto', onLaidOut }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<cytoscape.Core | null>(null);
  const handlers = useRef({ onSelect, onMoved, onLaidOut });
  handlers.current = { onSelect, onMoved, onLaidOut };
  const lastRelayout = useRef(relayout);

  // One cytoscape instance for the view's life; its theme follows the page's.
  useEffect(() => {
    if (!container.current) return;
    registerFcose();
    const core = cytoscape({ container: container.current, minZoom: 0.05, maxZoom: 3, wheelSensitivity: 0.3 });
    core.on('tap', 'node', (e) => handlers.current.onSelect(e.target.id()));
    core.on('tap', (e) => {
      if (e.target === core) handlers.current.onSelect(null);
    });
    core.on('dragfree', 'node', () => {
      const positions: Positions = {};
      core.nodes().forEach((n) => {
        positions[n.id()] = { ...n.position() };
      });
      handlers.current.onMoved?.(positions);
    });
    cy.current = core;
    const observer = new MutationObserver(() => core.style(stylesheet(core.nodes().length > LARGE_MAP)));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    // The side panel opening or the window resizing changes the canvas's size: what was in the
    // middle of the view stays in the middle, at the same zoom.
    const element = container.current;
    let size = { w: element.clientWidth, h: element.clientHeight };
    const resized = new ResizeObserver(() => {
      const now = { w: element.clientWidth, h: element.clientHeight };
      const pan = core.pan();
      core.resize();
      core.pan({ x: pan.x + (now.w - size.w) / 2, y: pan.y + (now.h - size.h) / 2 });
      size = now;
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
    if (!fresh)
      core.nodes().forEach((n) => {
        current[n.id()] = { ...n.position() };
      });
    const large = map.cruxes.length + map.agents.length > LARGE_MAP;
    const elements = elementsOf(map, !large);
    const ids = elements.filter((e) => e.group === 'nodes').map((e) => e.data.id as string);
    const known: Positions = { ...(fresh ? {} : (map.layout?.positions ?? {})), ...current };
    const placed = ids.filter((id) => known[id]);

    let chosen: LaidOut['layout'];
    let options: cytoscape.LayoutOptions;
    let preset: Positions | null = null;
    if (layout === 'cheap' || (layout === 'auto' && large)) {
      const base = cheapLayout(map);
      chosen = 'cheap';
      const positions = Object.fromEntries(ids.map((id) => [id, known[id] ?? base[id] ?? { x: 0, y: 0 }]));
      preset = positions;
      options = { name: 'preset', positions, fit: true, padding: 30 };
    } else if (layout === 'auto' && placed.length === ids.length && ids.length > 0) {
      chosen = 'preset';
      const positions = Object.fromEntries(ids.map((id) => [id, known[id] ?? { x: 0, y: 0 }]));
      preset = positions;
      options = { name: 'preset', positions, fit: true, padding: 30 };
    } else {
      chosen = 'fcose';
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
    const toAdd = elements.map((e) => {
      const at = (preset ?? known)[e.data.id as string];
      return { group: e.group, data: e.data, ...(e.group === 'nodes' && at ? { position: { ...at } } : {}) };
    });
    const layOut = () => {
      const run = core.layout(options);
      run.one('layoutstop', () => {
        // A small map fitted to the canvas would be drawn huge: keep it at about its natural size.
        if (core.zoom() > MAX_FIT_ZOOM) {
          core.zoom(MAX_FIT_ZOOM);
          core.center();
        }
        requestAnimationFrame(() =>
          handlers.current.onLaidOut?.({ ms: performance.now() - t0, layout: chosen, nodes: ids.length }),
        );
        if (chosen === 'fcose') {
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
      else layOut();
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
    if (!selected) return;
    const node = core.$id(selected);
    if (node.nonempty()) {
      node.select();
      const { x, y } = node.position();
      const view = core.extent();
      if (x < view.x1 || x > view.x2 || y < view.y1 || y > view.y2) core.center(node);
    }
    // The map's data too: a reload re-adds the nodes, and the selection goes with the old ones.
  }, [selected, map]);

  return (
    <div
      ref={container}
      className="crux-graph"
      role="img"
      aria-label="Crux map graph (use the list beside it to move through the nodes)"
      data-testid="crux-graph"
    />
  );
}
