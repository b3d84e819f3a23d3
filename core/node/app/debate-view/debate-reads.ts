import type { AppContext } from '../app-context';
import { type Course, courseOf } from './course';
import { type DebateDigest, digestOf } from './debate-digests';
import { FoldedLogs } from './folded-logs';
import { Transcripts } from './transcripts';

/**
 * What the debate views read of debates, folded from their logs on demand and cached until a log
 * grows: digests (progress, crux maps, the ledger), courses, and transcripts (the reader, search,
 * crux maps and the ledger all number messages the same way). Built once per app and shared by the
 * debates', ledger's and transcripts' handlers, so each log is folded once for all of them.
 */
export interface DebateReads {
  readonly digests: FoldedLogs<DebateDigest>;
  readonly courses: FoldedLogs<Course>;
  readonly transcripts: Transcripts;
}

export function debateReads(ctx: Pick<AppContext, 'ws' | 'service'>): DebateReads {
  const { ws, service } = ctx;
  return {
    digests: new FoldedLogs(ws.root, ws.db, service, digestOf),
    courses: new FoldedLogs(ws.root, ws.db, service, courseOf),
    transcripts: new Transcripts(ws.db),
  };
}
