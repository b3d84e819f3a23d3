import type { TranscriptMessage } from '../../../contract';
import type { ProtocolRegistry } from '../../../engine/registry';
import { RunService } from '../../runs/run-service';
import { listRuns, type RunListing } from '../../sqlite/run-list-queries';
import type { Workspace } from '../../workspace/workspace';

/** A run of a registered protocol as the transcript views read it. */
export interface RunTranscript {
  row: RunListing;
  agents: { id: string; name: string }[];
  messages: TranscriptMessage[];
}

/**
 * The transcripts of runs of the protocols registered in core/protocols.ts: each protocol says who
 * said what (`ProtocolEntry.transcript`), folded from the run's log and kept until the log grows.
 * Crux debates and evaluations have transcripts of their own.
 */
export class RunTranscripts {
  private readonly cache = new Map<string, { updatedAt: string; value: RunTranscript }>();

  constructor(
    private readonly ws: Workspace,
    private readonly registry: ProtocolRegistry,
  ) {}

  rows(): RunListing[] {
    // Debates and evaluations have transcripts of their own kinds.
    const hosted = new Set(this.registry.hosted);
    return listRuns(this.ws.db).filter((row) => hosted.has(row.protocol));
  }

  get(id: string): RunTranscript | null {
    const row = this.rows().find((r) => r.id === id);
    if (!row) return null;
    const cached = this.cache.get(id);
    if (cached?.updatedAt === row.updatedAt) return cached.value;
    const report = new RunService(this.ws, this.registry).show(id);
    const messages = report.transcript.map(
      (line, index): TranscriptMessage => ({
        index,
        id: `${id}-${index}`,
        thread: row.protocol,
        kind: 'message',
        agent: line.author,
        move: null,
        stage: null,
        content: line.text,
        replyTo: null,
        reason: null,
        intervention: null,
        target: null,
        at: row.createdAt,
      }),
    );
    const authors = [...new Set(report.transcript.map((l) => l.author))];
    const value = { row, agents: authors.map((a) => ({ id: a, name: a })), messages };
    this.cache.set(id, { updatedAt: row.updatedAt, value });
    return value;
  }
}
