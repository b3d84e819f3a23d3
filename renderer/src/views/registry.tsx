import type { ComponentType } from 'react';
import type { Route } from '../router';
import { ConvergenceView } from './convergence/convergence-view';
import { CruxMapView } from './crux-map/crux-map-view';
import { DebateView } from './debate/debate-view';
import { EvaluationLiveView } from './evaluation/evaluation-live-view';
import { ExportView } from './export/export-view';
import { GraphView } from './graph/graph-view';
import { IdeaView } from './idea/idea-view';
import { LeaderboardsView } from './leaderboards/leaderboards-view';
import { LedgerView } from './ledger/ledger-view';
import { LibraryView } from './library/library-view';
import { MatrixView } from './matrix/matrix-view';
import { PipelineView } from './pipeline/pipeline-view';
import { SettingsView } from './settings/settings-view';
import { TranscriptView } from './transcripts/transcript-view';
import { TranscriptsView } from './transcripts/transcripts-view';

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
