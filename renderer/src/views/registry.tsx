import { type ComponentType, lazy } from 'react';
import type { Route } from '../router';
import { ApprovalsBadge } from './approvals/approvals-badge';
import { LibraryView } from './library/library-view';

// Every view but the first is its own bundle, fetched when first opened (or when the window is
// idle): the window is usable before the charting and graph libraries are even parsed.

/**
 * A view that loads on first use. The loader is shared, so `prefetchViews` (run when the window is
 * idle) and the first visit fetch and evaluate the bundle once.
 */
function deferred<K extends string>(load: () => Promise<Record<K, ComponentType<{ route: Route }>>>, name: K) {
  let loading: Promise<{ default: ComponentType<{ route: Route }> }> | null = null;
  const once = () => {
    loading ??= load().then((m) => ({ default: m[name] }));
    return loading;
  };
  return { component: lazy(once), prefetch: once };
}

const ArenaView = deferred(() => import('./arena/arena-view'), 'ArenaView');
const ConvergenceView = deferred(() => import('./convergence/convergence-view'), 'ConvergenceView');
const EvaluationLiveView = deferred(() => import('./evaluation/evaluation-live-view'), 'EvaluationLiveView');
const LeaderboardsView = deferred(() => import('./leaderboards/leaderboards-view'), 'LeaderboardsView');
const TranscriptsView = deferred(() => import('./transcripts/transcripts-view'), 'TranscriptsView');
const CruxMapView = deferred(() => import('./crux-map/crux-map-view'), 'CruxMapView');
const DebateView = deferred(() => import('./debate/debate-view'), 'DebateView');
const ExportView = deferred(() => import('./export/export-view'), 'ExportView');
const GlossaryView = deferred(() => import('./glossary/glossary-view'), 'GlossaryView');
const GraphView = deferred(() => import('./graph/graph-view'), 'GraphView');
const IdeaView = deferred(() => import('./idea/idea-view'), 'IdeaView');
const LedgerView = deferred(() => import('./ledger/ledger-view'), 'LedgerView');
const MatrixView = deferred(() => import('./matrix/matrix-view'), 'MatrixView');
const PipelineView = deferred(() => import('./pipeline/pipeline-view'), 'PipelineView');
const SettingsView = deferred(() => import('./settings/settings-view'), 'SettingsView');
const TranscriptView = deferred(() => import('./transcripts/transcript-view'), 'TranscriptView');
const CouncilView = deferred(() => import('./council/council-view'), 'CouncilView');
const ApprovalsView = deferred(() => import('./approvals/approvals-view'), 'ApprovalsView');
const CompareView = deferred(() => import('./compare/compare-view'), 'CompareView');

export interface ViewEntry {
  /** The route's first segment. */
  route: string;
  title: string;
  component: ComponentType<{ route: Route }>;
  /** Listed in the left rail (views reached from another view, such as one idea, are not). */
  rail: boolean;
  /** Alt+<key> jumps to it. */
  key?: string;
  /** Drawn beside its name on the rail (a count of what waits there). */
  badge?: ComponentType;
}

/**
 * Every view of the app. Routes: `#/library`, `#/idea/<slug>`, `#/debate/<id>`,
 * `#/evaluation/<id>`, `#/crux-map/<debateId>`, `#/ledger`, `#/leaderboards`,
 * `#/convergence/<evaluationId>`, `#/matrix`, `#/pipeline`, `#/graph`, `#/transcripts`,
 * `#/transcript/<debate|evaluation>/<id>?m=<index>`, `#/settings`, `#/export`, `#/glossary?term=<id>`,
 * `#/arena`, `#/arena/<id>`, `#/council`, `#/council/<task id>`, `#/approvals`, `#/compare?ideas=a,b,c`.
 */
export const VIEWS: readonly ViewEntry[] = [
  { route: 'library', title: 'Library', component: LibraryView, rail: true, key: '1' },
  { route: 'pipeline', title: 'Pipeline', component: PipelineView.component, rail: true, key: '2' },
  { route: 'graph', title: 'Graph', component: GraphView.component, rail: true, key: '3' },
  { route: 'matrix', title: 'Matrix', component: MatrixView.component, rail: true, key: '4' },
  { route: 'leaderboards', title: 'Leaderboards', component: LeaderboardsView.component, rail: true, key: '5' },
  { route: 'convergence', title: 'Convergence', component: ConvergenceView.component, rail: true, key: '6' },
  { route: 'ledger', title: 'Crux ledger', component: LedgerView.component, rail: true, key: '7' },
  { route: 'transcripts', title: 'Transcripts', component: TranscriptsView.component, rail: true, key: '8' },
  { route: 'export', title: 'Export', component: ExportView.component, rail: true, key: '9' },
  { route: 'settings', title: 'Settings', component: SettingsView.component, rail: true, key: '0' },
  { route: 'arena', title: 'Arenas', component: ArenaView.component, rail: true },
  { route: 'council', title: 'Council', component: CouncilView.component, rail: true },
  { route: 'approvals', title: 'Approvals', component: ApprovalsView.component, rail: true, badge: ApprovalsBadge },
  { route: 'glossary', title: 'Glossary', component: GlossaryView.component, rail: true },
  { route: 'idea', title: 'Idea', component: IdeaView.component, rail: false },
  { route: 'debate', title: 'Debate', component: DebateView.component, rail: false },
  { route: 'evaluation', title: 'Evaluation', component: EvaluationLiveView.component, rail: false },
  { route: 'crux-map', title: 'Crux map', component: CruxMapView.component, rail: false },
  { route: 'transcript', title: 'Transcript', component: TranscriptView.component, rail: false },
  { route: 'compare', title: 'Compare ideas', component: CompareView.component, rail: false },
];

const DEFERRED = [
  IdeaView,
  ArenaView,
  LeaderboardsView,
  ConvergenceView,
  TranscriptsView,
  EvaluationLiveView,
  CruxMapView,
  DebateView,
  ExportView,
  GraphView,
  GlossaryView,
  LedgerView,
  MatrixView,
  PipelineView,
  SettingsView,
  TranscriptView,
  CouncilView,
  ApprovalsView,
  CompareView,
];

/**
 * Loads every view's bundle in the background, one at a time while the page is idle, so the first
 * visit to a view does not wait for its code.
 */
export function prefetchViews(): void {
  const idle = (next: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(next, { timeout: 2000 }) : setTimeout(next, 50);
  const queue = [...DEFERRED];
  const step = () => {
    const view = queue.shift();
    if (!view) return;
    view.prefetch().then(
      () => idle(step),
      () => idle(step),
    );
  };
  idle(step);
}

export function viewFor(route: string): ViewEntry {
  return VIEWS.find((v) => v.route === route) ?? (VIEWS[0] as ViewEntry);
}
