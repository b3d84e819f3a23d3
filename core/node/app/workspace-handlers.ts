import type { workspaceChannels } from '../../contract';
import { loadPersonas } from '../personas/load-personas';
import type { AppContext, AreaHandlers } from './app-context';
import { syncReportView } from './views';

/**
 * The handlers of the channels in core/contract/workspace-channels.ts: a reconcile of the folder
 * against the index on demand, and every file the app could not take in (idea files, debate logs,
 * persona files).
 */
export function workspaceHandlers(ctx: AppContext): AreaHandlers<keyof typeof workspaceChannels> {
  const { ws, service, open } = ctx;
  return {
    impl: {
      'workspace:sync': () => {
        open();
        const report = syncReportView(ws.sync());
        // A full sync reads every debate log too: one damaged since it was indexed is listed by file and line.
        return { ...report, errors: [...report.errors, ...service.checkLogs()] };
      },
      'workspace:errors': () => {
        open();
        return {
          errors: [
            ...ws.errors().map((e) => ({ ...e, source: 'idea' as const })),
            ...service.checkLogs().map((e) => ({ file: e.file, reason: e.reason, source: 'debate' as const })),
            ...loadPersonas(ws.root).errors.map((e) => ({
              file: e.file,
              reason: e.reason,
              source: 'persona' as const,
            })),
          ],
        };
      },
    },
  };
}
