import { type ComponentType, lazy } from 'react';
import type { Route } from '../router';
import { LibraryView } from './library/library-view';

// Every view but the first is its own bundle, fetched when first opened: the window is usable
// before the charting and graph libraries (most of the code) are even parsed.
const ConvergenceView = lazy(() =>
  import('./convergence/convergence-view').then((m) => ({ default: m.ConvergenceView })),
);
const CruxMapView = lazy(() => import('./crux-map/crux-map-view').then((m) => ({ default: m.CruxMapView })));
const DebateView = lazy(() => import('./debate/debate-view').then((m) => ({ default: m.DebateView })));
const EvaluationLiveView = lazy(() =>
  import('./evaluation/evaluation-live-view').then((m) => ({ default: m.EvaluationLiveView })),
);
const ExportView = lazy(() => import('./export/export-view').then((m) => ({ default: m.ExportView })));
const GraphView = lazy(() => import('./graph/graph-view').then((m) => ({ default: m.GraphView })));
const IdeaView = lazy(() => import('./idea/idea-view').then((m) => ({ default: m.IdeaView })));
const LeaderboardsView = lazy(() =>
  import('./leaderboards/leaderboards-view').then((m) => ({ default: m.LeaderboardsView })),
);
const LedgerView = lazy(() => import('./ledger/ledger-view').then((m) => ({ default: m.LedgerView })));
const MatrixView = lazy(() => import('./matrix/matrix-view').then((m) => ({ default: m.MatrixView })));
const PipelineView = lazy(() => import('./pipeline/pipeline-view').then((m) => ({ default: m.PipelineView })));
const SettingsView = lazy(() => import('./settings/settings-view').then((m) => ({ default: m.SettingsView })));
const TranscriptView = lazy(() => import('./transcripts/transcript-view').then((m) => ({ default: m.TranscriptView })));
const TranscriptsView = lazy(() =>
  import('./transcripts/transcripts-view').then((m) => ({ default: m.TranscriptsView })),
);

export interface ViewEntry {
  /** The route's first segment. */
  route: string;
  title: string;
  component: ComponentType<{ route: Route }>;
  /** Listed in the left rail (views reached from another view, such as one idea, are not). */
  rail: boolean;
  /** Alt+<key> jumps to it. */
  key?: string;
}

/**
 * Every view of the app. Routes: `#/library`, `#/idea/<slug>`, `#/debate/<id>`,
 * `#/evaluation/<id>`, `#/crux-map/<debateId>`, `#/ledger`, `#/leaderboards`,
 * `#/convergence/<evaluationId>`, `#/matrix`, `#/pipeline`, `#/graph`, `#/transcripts`,
 * `#/transcript/<debate|evaluation>/<id>?m=<index>`, `#/settings`, `#/export`.
 */
export const VIEWS: readonly ViewEntry[] = [
  { route: 'library', title: 'Library', component: LibraryView, rail: true, key: '1' },
  { route: 'pipeline', title: 'Pipeline', component: PipelineView, rail: true, key: '2' },
  { route: 'graph', title: 'Graph', component: GraphView, rail: true, key: '3' },
  { route: 'matrix', title: 'Matrix', component: MatrixView, rail: true, key: '4' },
  { route: 'leaderboards', title: 'Leaderboards', component: LeaderboardsView, rail: true, key: '5' },
  { route: 'convergence', title: 'Convergence', component: ConvergenceView, rail: true, key: '6' },
  { route: 'ledger', title: 'Crux ledger', component: LedgerView, rail: true, key: '7' },
  { route: 'transcripts', title: 'Transcripts', component: TranscriptsView, rail: true, key: '8' },
  { route: 'export', title: 'Export', component: ExportView, rail: true, key: '9' },
  { route: 'settings', title: 'Settings', component: SettingsView, rail: true, key: '0' },
  { route: 'idea', title: 'Idea', component: IdeaView, rail: false },
  { route: 'debate', title: 'Debate', component: DebateView, rail: false },
  { route: 'evaluation', title: 'Evaluation', component: EvaluationLiveView, rail: false },
  { route: 'crux-map', title: 'Crux map', component: CruxMapView, rail: false },
  { route: 'transcript', title: 'Transcript', component: TranscriptView, rail: false },
];

export function viewFor(route: string): ViewEntry {
  return VIEWS.find((v) => v.route === route) ?? (VIEWS[0] as ViewEntry);
}
