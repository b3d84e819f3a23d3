import type Database from 'better-sqlite3';
import type { DebateRecord } from '../../../engine/debate-record';
import type { DebateService } from '../../debates/debate-service';
import { readDebateLog } from '../../debates/journal';
import { lastDebateSeq } from '../../sqlite/debate-view-queries';

/**
 * A fold of each debate's log, made on demand and kept until the log grows: a finished debate is
 * folded once per app run, a running one again when asked after new records. The index mirrors every
 * record in the same append as the file, so whether a log has grown is one lookup.
 */
export class FoldedLogs<T> {
  private readonly cache = new Map<string, { seq: number; value: T }>();

  constructor(
    private readonly root: string,
    private readonly db: Database.Database,
    private readonly service: DebateService,
    private readonly fold: (records: readonly DebateRecord[]) => T,
  ) {}

  /** Throws the service's "no debate" UserError for an unknown id. */
  get(id: string): T {
    const rel = this.service.logPathOf(id);
    const seq = lastDebateSeq(this.db, id);
    const cached = this.cache.get(id);
    if (cached && cached.seq === seq) return cached.value;
    const { records } = readDebateLog(this.root, rel);
    const value = this.fold(records);
    this.cache.set(id, { seq, value });
    return value;
  }
}
