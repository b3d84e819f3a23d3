import { useMemo, useState } from 'react';
import type { CruxMap, GlobalCruxGraphView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { CruxGraph } from './crux-graph';

type GraphNode = GlobalCruxGraphView['nodes'][number];

/** Where one crux of a debate is shown: its own debate's map, with the crux selected. */
const memberLink = (debateId: string, thread: string) => href('crux-map', debateId, { node: `crux:${thread}` });

/**
 * The global graph drawn by the debate map's own graph: one node per global crux (its size the best
 * DCG among its members), the confirmed dependencies as "rests on" lines and contradictions as
 * dashed ones. Agents differ from debate to debate, so none are drawn; a node's members say where
 * each side stands.
 */
export function graphAsMap(graph: GlobalCruxGraphView): CruxMap {
  return {
    debateId: '__workspace',
    topic: 'Every debate of the workspace',
    ideaSlug: null,
    status: 'completed',
    agents: [],
    coalitions: [],
    cruxes: graph.nodes.map((n) => ({
      id: n.id,
      thread: n.members[0]?.thread ?? n.id,
      kind: 'crux',
      question: n.question,
      threadStatus: 'CONVERGED',
      crystallized: true,
      validated: n.validated,
      primary: n.root,
      dcg: n.dcg,
      validationFailures: [],
      dominantHorizon: null,
      positions: [],
      resolutionCriteria: [],
      supporting: [],
      history: [],
    })),
    edges: graph.edges.map((e) => ({
      kind: e.kind === 'CONTRADICTS' ? 'contradiction' : 'dependency',
      from: e.from,
      to: e.to,
      reason: `${e.kind} (${e.confidence}): ${e.sketch}`,
    })),
    layout: null,
  };
}

/**
 * `#/crux-map` without a debate: the workspace mode. Every debate's cruxes together (cruxes:graph):
 * the questions worth debating next, root cruxes, cruxes shared by several ideas, duplicates merged
 * and dependencies, each crux linking to the debates it came from.
 */
export function WorkspaceMap({ initial }: { initial: string | null }) {
  const client = useClient();
  const loaded = useChannel('cruxes:graph', {});
  const settings = useChannel('settings:get', {});
  const provider = settings.data?.provider ?? 'simulated';
  // The cross-debate analysis: the pairs the words pick out, put to the settings' provider.
  const check = useAction(async () => {
    const done = await client.invoke('cruxes:check', { provider });
    loaded.reload();
    return done;
  });
  const [selected, setSelected] = useState<string | null>(initial);
  const [relayout, setRelayout] = useState(0);
  const reload = loaded.reload;
  usePush('run:status', () => reload());
  const graph = loaded.data;
  const map = useMemo(() => (graph ? graphAsMap(graph) : null), [graph]);
  const node = graph?.nodes.find((n) => n.id === selected) ?? null;

  return (
    <section className="view crux-map-view" data-testid="workspace-crux-map">
      <header className="crux-map-head">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <h1>Crux map of the workspace</h1>
          {graph && (
            <div className="muted">
              {graph.nodes.length} crux{graph.nodes.length === 1 ? '' : 'es'} from {graph.debates.length} debate
              {graph.debates.length === 1 ? '' : 's'} · {graph.merges.length} merged · {graph.edges.length} dependenc
              {graph.edges.length === 1 ? 'y' : 'ies'}
            </div>
          )}
          {/* Only where there is something across debates to check (a single debate has nothing). */}
          {graph && graph.crossDebate.checked + graph.crossDebate.unchecked > 0 && (
            <div className="muted small" data-testid="cross-debate">
              Across debates: {graph.crossDebate.checked} pair{graph.crossDebate.checked === 1 ? '' : 's'} checked by a
              model ({graph.crossDebate.confirmed} confirmed) · {graph.crossDebate.unchecked} to check
              {graph.crossDebate.unchecked > 0 ? ' (merged on their wording until then)' : ''}
            </div>
          )}
        </div>
        <div className="row">
          {graph && graph.crossDebate.unchecked > 0 && (
            <button
              type="button"
              onClick={() => void check.run()}
              disabled={check.running}
              title={`A first call names each relation with a confidence, a second confirms it (${provider}; at most 20 pairs and $0.50 a pass)`}
            >
              {check.running ? 'Checking…' : `Check across debates (${provider})`}
            </button>
          )}
          <a href={href('ledger')}>ledger</a>
          <button type="button" onClick={() => setRelayout((n) => n + 1)} disabled={!map}>
            Lay out afresh
          </button>
        </div>
      </header>
      <ErrorNotice error={loaded.error} />
      <ErrorNotice error={check.error} />
      {graph && graph.nodes.length === 0 && (
        <p className="muted">No crux has crystallized in any debate yet: start a debate from an idea.</p>
      )}
      {graph && map && graph.nodes.length > 0 && (
        <div className={`crux-map-body ${node ? 'with-detail' : ''}`}>
          <nav className="crux-list" aria-label="Next questions and cruxes">
            <h2 className="small">Recommended next questions</h2>
            {graph.recommended.length === 0 && (
              <p className="muted small">
                None stands out yet: no root crux or crux shared by several ideas is still split, and every crux is
                validated.
              </p>
            )}
            <ol data-testid="recommended">
              {graph.recommended.map((r) => (
                <li key={`${r.node}:${r.question}`}>
                  {r.node ? (
                    <button type="button" className="link" onClick={() => setSelected(r.node)}>
                      {r.question}
                    </button>
                  ) : (
                    r.question
                  )}
                  <div className="muted small">{r.reason}</div>
                </li>
              ))}
            </ol>
            <h2 className="small">Cruxes ({graph.nodes.length})</h2>
            <ul data-testid="workspace-cruxes">
              {graph.nodes.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    className={`link crux-item ${selected === n.id ? 'current' : ''}`}
                    aria-current={selected === n.id ? 'true' : undefined}
                    onClick={() => setSelected(n.id)}
                  >
                    {n.question}
                  </button>
                  <span className="muted small">
                    {' '}
                    {[
                      n.root ? 'root' : null,
                      n.shared ? `shared by ${n.ideas.length} ideas` : null,
                      n.members.length > 1 ? `${n.members.length} cruxes merged` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </li>
              ))}
            </ul>
          </nav>
          <CruxGraph map={map} selected={selected} onSelect={setSelected} relayout={relayout} />
          {node && <WorkspaceNodeDetail graph={graph} node={node} onClose={() => setSelected(null)} />}
        </div>
      )}
    </section>
  );
}

function WorkspaceNodeDetail({
  graph,
  node,
  onClose,
}: {
  graph: GlobalCruxGraphView;
  node: GraphNode;
  onClose: () => void;
}) {
  const topic = (id: string) => graph.debates.find((d) => d.id === id)?.topic ?? id;
  const question = (id: string) => graph.nodes.find((n) => n.id === id)?.question ?? id;
  const merges = graph.merges.filter((m) => m.node === node.id);
  const restsOn = graph.edges.filter((e) => e.to === node.id);
  const under = graph.edges.filter((e) => e.from === node.id);
  return (
    <aside className="crux-detail card" aria-label="The selected crux" data-testid="workspace-crux-detail">
      <button type="button" className="link crux-detail-close" onClick={onClose} aria-label="Close">
        ×
      </button>
      <h2 className="small">{node.question}</h2>
      <p className="muted small">
        YES {node.split.yes} · NO {node.split.no} · unsure {node.split.uncertain} · best DCG {node.dcg.toFixed(2)}
        {node.root ? ' · root crux' : ''}
        {node.shared ? ` · shared by ${node.ideas.join(', ')}` : ''}
      </p>
      <h3 className="small">Debated in</h3>
      <ul>
        {node.members.map((m) => (
          <li key={`${m.debateId}/${m.thread}`}>
            <a href={memberLink(m.debateId, m.thread)}>{topic(m.debateId)}</a> · {m.thread}
            {m.mergedInto ? ` (merged into ${m.mergedInto})` : ''} · {m.question}
          </li>
        ))}
      </ul>
      {merges.length > 0 && (
        <>
          <h3 className="small">Merged duplicates</h3>
          <ul data-testid="merged-duplicates">
            {merges.map((m) => (
              <li key={`${m.from}>${m.into}`}>
                {m.from} into {m.into}:{' '}
                {m.via === 'confirmed' ? 'confirmed by a second call' : 'the same question in other words'} (
                {m.confidence}) — {m.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {(restsOn.length > 0 || under.length > 0) && (
        <>
          <h3 className="small">Dependencies</h3>
          <ul data-testid="dependencies">
            {restsOn.map((e) => (
              <li key={`${e.kind}:${e.from}`}>
                rests on “{question(e.from)}” ({e.kind}, confidence {e.confidence}, confirmed) — {e.sketch}
              </li>
            ))}
            {under.map((e) => (
              <li key={`${e.kind}>${e.to}`}>
                “{question(e.to)}” rests on it ({e.kind}, confidence {e.confidence}, confirmed)
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
