import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CruxMap } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { personaColours } from '../../ui/persona-colour';
import { NodeDetail } from './crux-detail';
import { CruxGraph, type LaidOut, type Positions } from './crux-graph';
import { agentNodeId, benchMap, cruxClass } from './map-elements';
import { WorkspaceMap } from './workspace-map';
import './crux-map.css';

/** A running debate's map is asked again at most this often while its events arrive. */
const LIVE_RELOAD_MS = 2500;

/**
 * `#/crux-map` (no debate): the workspace mode (./workspace-map.tsx). `#/crux-map/<debateId>`: the debate's cruxes and agents in cytoscape, a keyboard-reachable list
 * of the same nodes beside it, and the clicked node's positions, falsifiers, resolution criteria
 * and supporting messages. `#/crux-map/__bench?nodes=500[&layout=auto|fcose|cheap]` draws a made-up
 * map of that size and reports how long its layout took (see docs/ui-debates.md).
 */
export function CruxMapView({ route }: { route: Route }) {
  const id = route.params[0];
  // Without a debate: the workspace mode, every debate's cruxes together.
  if (!id) return <WorkspaceMap initial={route.query.get('node')} />;
  if (id === '__bench') {
    const nodes = Math.max(2, Math.min(5000, Number(route.query.get('nodes') ?? 500) || 500));
    const layout = route.query.get('layout');
    return (
      <BenchMap
        key={`${nodes}:${layout}`}
        nodes={nodes}
        layout={layout === 'fcose' || layout === 'cheap' ? layout : 'auto'}
      />
    );
  }
  return <DebateMap key={id} id={id} node={route.query.get('node')} />;
}

function DebateMap({ id, node }: { id: string; node: string | null }) {
  const client = useClient();
  const loaded = useChannel('debates:cruxMap', { id });
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = loaded.reload;
  const live = loaded.data?.status === 'running' || loaded.data?.status === 'paused';

  const save = useCallback(
    (positions: Positions) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        client.invoke('debates:saveCruxLayout', { id, positions }).then(
          () => {
            setSaved(new Date().toLocaleTimeString());
            setSaveError(null);
          },
          (e: unknown) => setSaveError(e),
        );
      }, 400);
    },
    [client, id],
  );
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);

  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  usePush('debate:event', (payload) => {
    if (payload.debateId !== id || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reload();
    }, LIVE_RELOAD_MS);
  });
  usePush('run:status', (payload) => {
    if (payload.id === id) reload();
  });
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);

  return (
    <MapScreen
      map={loaded.data}
      initial={node}
      error={loaded.error ?? saveError}
      onPositions={save}
      status={
        <>
          {live && <span className="badge accent">live</span>}
          {saved && <span className="muted small">layout saved {saved}</span>}
        </>
      }
    />
  );
}

function BenchMap({ nodes, layout }: { nodes: number; layout: 'auto' | 'fcose' | 'cheap' }) {
  const map = useMemo(() => benchMap(nodes), [nodes]);
  const [result, setResult] = useState<LaidOut | null>(null);
  return (
    <MapScreen
      map={map}
      error={null}
      layout={layout}
      onLaidOut={setResult}
      status={
        <span
          className="muted small"
          data-testid="crux-map-bench"
          data-layout-ms={result ? result.ms.toFixed(1) : undefined}
          data-layout={result?.layout}
          data-nodes={result?.nodes}
        >
          {result ? `${result.nodes} nodes laid out (${result.layout}) in ${result.ms.toFixed(0)} ms` : 'laying out…'}
        </span>
      }
    />
  );
}

interface ScreenProps {
  map: CruxMap | null;
  /** The node selected when the map opens (`?node=crux:t1`, from the ledger). */
  initial?: string | null;
  error: unknown;
  status: React.ReactNode;
  layout?: 'auto' | 'fcose' | 'cheap';
  onPositions?: (positions: Positions) => void;
  onLaidOut?: (info: LaidOut) => void;
}

function MapScreen({ map, initial = null, error, status, layout = 'auto', onPositions, onLaidOut }: ScreenProps) {
  const [selected, setSelected] = useState<string | null>(initial);
  const [relayout, setRelayout] = useState(0);
  const debateId = map?.debateId;
  const real = debateId !== undefined && debateId !== '__bench';
  // The same colours as the graph's and the side panel's (personaColours over the map's agents).
  const agentColour = useMemo(() => personaColours((map?.agents ?? []).map((a) => a.persona ?? a.id)), [map?.agents]);

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'crux-map:relayout',
        title: 'Lay out the crux map afresh',
        group: 'Crux map',
        run: () => setRelayout((n) => n + 1),
      },
      ...(real
        ? [
            {
              id: 'crux-map:debate',
              title: 'Open this map’s debate',
              group: 'Crux map',
              run: () => navigate(href('debate', debateId)),
            },
            {
              id: 'crux-map:transcript',
              title: 'Read this map’s transcript',
              group: 'Crux map',
              run: () => navigate(href('transcript', 'debate', debateId)),
            },
            {
              id: 'crux-map:course',
              title: 'Chart this debate’s DCG and positions',
              group: 'Crux map',
              run: () => navigate(href('convergence', 'debate', debateId)),
            },
          ]
        : []),
      ...(map?.cruxes.find((c) => c.primary)
        ? [
            {
              id: 'crux-map:primary',
              title: 'Show the primary crux',
              group: 'Crux map',
              run: () => setSelected(map.cruxes.find((c) => c.primary)?.id ?? null),
            },
          ]
        : []),
    ],
    [real, debateId, map],
  );
  useCommands('crux-map-view', commands);

  // Escape closes the side panel, wherever the focus is in the view.
  useEffect(() => {
    if (!selected) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !document.querySelector('.palette-backdrop')) setSelected(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected]);

  return (
    <section className="view crux-map-view">
      <header className="crux-map-head">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <h1>Crux map</h1>
          {map && <div className="muted crux-map-topic">{map.topic}</div>}
        </div>
        <div className="row">
          {status}
          {real && (
            <>
              <a href={href('debate', debateId)}>debate</a>
              <a href={href('transcript', 'debate', debateId)}>transcript</a>
              <a href={href('convergence', 'debate', debateId)}>DCG and positions</a>
            </>
          )}
          <button type="button" onClick={() => setRelayout((n) => n + 1)} disabled={!map}>
            Lay out afresh
          </button>
        </div>
      </header>
      <ErrorNotice error={error} />
      <Legend />
      {map && map.cruxes.length === 0 && (
        <p className="muted">No crux yet: a thread shows up here once it has a binary question.</p>
      )}
      {map && (
        <div className={`crux-map-body ${selected ? 'with-detail' : ''}`}>
          <nav className="crux-list" aria-label="Cruxes and agents">
            <h2 className="small">
              Cruxes ({map.cruxes.length}) <Help term="crux" /> · DCG 0–1 <Help term="dcg" />
            </h2>
            <ul>
              {map.cruxes.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className={`link crux-item ${cruxClass(c)} ${selected === c.id ? 'current' : ''}`}
                    aria-current={selected === c.id ? 'true' : undefined}
                    onClick={() => setSelected(c.id)}
                  >
                    <span className="dot" aria-hidden="true" />
                    {c.question}
                    {c.dcg !== null && (
                      <span className="muted" title="DCG: how much of the disagreement this crux captures, 0 to 1">
                        {' '}
                        · DCG {c.dcg.toFixed(2)}
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
            <h2 className="small">Agents</h2>
            <ul>
              {map.agents.map((a) => (
                <li key={a.id}>
                  <button
                    type="button"
                    className={`link ${selected === agentNodeId(a.id) ? 'current' : ''}`}
                    style={{ color: agentColour(a.persona ?? a.id) }}
                    data-testid="map-agent"
                    onClick={() => setSelected(agentNodeId(a.id))}
                  >
                    {a.name}
                    {a.coalition !== null && (
                      <span className="muted small"> · {map.coalitions[a.coalition]?.label}</span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <CruxGraph
            map={map}
            selected={selected}
            onSelect={setSelected}
            onMoved={onPositions}
            relayout={relayout}
            layout={layout}
            onLaidOut={onLaidOut}
          />
          {selected && <NodeDetail map={map} selected={selected} onSelect={setSelected} />}
        </div>
      )}
    </section>
  );
}

/**
 * What every mark on the map means. The colours keep the app's meanings: green and red are YES and
 * NO on the agents' lines only; a crux's state is its fill; agents wear their persona's colour.
 */
function Legend() {
  return (
    <section className="crux-legend small" aria-label="Legend" data-testid="crux-legend">
      <span className="legend-group">
        <strong>Cruxes</strong>
        <span>
          <i className="dot primary" /> primary
        </span>
        <span>
          <i className="dot validated" /> validated
        </span>
        <span>
          <i className="dot unvalidated" /> crystallized, not validated
        </span>
        <span>
          <i className="dot open" /> open
        </span>
        <span>
          <i className="dot candidate" /> deeper crux proposed
        </span>
        <span className="muted">size: DCG</span>
      </span>
      <span className="legend-group">
        <strong>Agents’ sides</strong>
        <span>
          <i className="line yes" /> YES
        </span>
        <span>
          <i className="line no" /> NO
        </span>
        <span>
          <i className="line unsure" /> unsure
        </span>
        <span className="muted">labelled with the agent’s confidence; YES agents left, NO right, undecided below</span>
      </span>
      <span className="legend-group">
        <strong>Between cruxes</strong>
        <span>
          <i className="line rests" /> rests on (the arrow points to the deeper crux)
        </span>
        <span>
          <i className="line contradicts" /> contradicts
        </span>
      </span>
    </section>
  );
}
