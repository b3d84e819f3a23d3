import {
  EVALUATION_TRANSCRIPT_MOVES,
  type TranscriptHit,
  type TranscriptSummary,
  type transcriptsChannels,
} from '../../contract';
import type { DebateHeader, DebateStatus } from '../../engine/debate-record';
import { protocols } from '../../protocols';
import { debateHeaderJson, debateThreads } from '../sqlite/debate-view-queries';
import type { RunListing } from '../sqlite/run-list-queries';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import type { DebateReads } from './debate-view/debate-reads';
import { EvaluationTranscripts } from './debate-view/evaluation-transcripts';
import { RunTranscripts } from './debate-view/run-transcripts';
import { snippetAround } from './debate-view/transcripts';
import type { EvaluationReader } from './evaluation-reader';
import { SameRows } from './index-memo';

/**
 * The handlers of the channels in core/contract/transcripts-channels.ts: every past transcript, a
 * crux debate's messages (through the shared DebateReads, numbered as every debate view numbers
 * them) and an evaluation's entries (read the way the evaluation channels read them), listed,
 * read in order, and searched across. Nothing here writes.
 */
export function transcriptsHandlers(
  ctx: AppContext,
  reads: DebateReads,
  evaluations: EvaluationReader,
): AreaHandlers<keyof typeof transcriptsChannels> {
  const { ws, service, open } = ctx;
  const { transcripts } = reads;
  const evaluationTranscripts = new EvaluationTranscripts(evaluations, () => ws.taxonomy.categories);
  const runTranscripts = new RunTranscripts(ws, protocols);
  let sameList = new SameRows<TranscriptSummary, { transcripts: TranscriptSummary[]; reading: number }>();
  let reading = 0;
  const runSummary = (row: RunListing) => ({
    kind: 'run' as const,
    id: row.id,
    title: `${row.topic} (${row.protocol})`,
    ideaSlug: row.ideaSlug,
    status: row.status,
    live: ctx.runs.get(row.id)?.live ?? false,
    provider: row.provider,
    createdAt: row.createdAt,
    messages: runTranscripts.get(row.id)?.messages.length ?? 0,
  });

  /** A debate's agents' names by id, from its header (the log's first record). */
  const agentNames = (id: string): Map<string, string> => {
    const json = debateHeaderJson(ws.db, id);
    if (json === null) return new Map();
    const header = (JSON.parse(json) as { header: DebateHeader }).header;
    return new Map(header.agents.map((a) => [a.id, a.name]));
  };

  const summaryOf = (row: ReturnType<typeof service.list>[number]) => ({
    kind: 'debate' as const,
    id: row.id,
    title: row.topic,
    ideaSlug: row.idea,
    status: row.status as DebateStatus,
    live: ctx.runs.get(row.id)?.live ?? false,
    provider: row.provider,
    createdAt: row.createdAt,
    messages: transcripts.messages(row.id).length,
  });

  return {
    impl: {
      'transcripts:list': () => {
        open();
        // Newest first across the kinds (ties keep debates first, then evaluations): the evaluations
        // come in that order, so the few others are sorted and merged with them (sorting 10,000
        // rows on every look took tens of milliseconds). The same list as last time is the same
        // object, checked once: 2,000 rows took 175 ms to check.
        const sorted = mergeNewestFirst([
          service.list().map(summaryOf).sort(newerFirst),
          evaluationTranscripts.list(),
          runTranscripts.rows().map(runSummary).sort(newerFirst),
        ]);
        const now = evaluations.progress().reading;
        if (now !== reading) {
          reading = now;
          sameList = new SameRows();
        }
        return sameList.of(sorted, (rows) => ({ transcripts: [...rows], reading }));
      },

      'transcripts:get': ({ kind, id }) => {
        open();
        if (kind === 'evaluation') return evaluationTranscripts.get(id);
        if (kind === 'run') {
          const run = runTranscripts.get(id);
          if (!run) throw new UserError(`no run "${id}" of a registered protocol (see: npm run cli -- runs list)`);
          return {
            ...runSummary(run.row),
            agents: run.agents,
            threads: [{ id: run.row.protocol, topic: run.row.topic }],
            transcript: run.messages,
            entries: [],
          };
        }
        const row = service.list().find((r) => r.id === id);
        if (!row) service.logPathOf(id); // the usual "no debate" error
        const summary = summaryOf(row as NonNullable<typeof row>);
        const header = (JSON.parse(debateHeaderJson(ws.db, id) as string) as { header: DebateHeader }).header;
        return {
          ...summary,
          agents: header.agents.map((a) => ({ id: a.id, name: a.name })),
          threads: debateThreads(ws.db, id),
          transcript: transcripts.messages(id),
          entries: [],
        };
      },

      'transcripts:search': ({ kind, text, agent, move, ideaSlug, from, to, limit }) => {
        open();
        const words = (text ?? '')
          .toLocaleLowerCase()
          .split(/\s+/)
          .filter((w) => w !== '');
        const who = agent?.toLocaleLowerCase();
        const hits: TranscriptHit[] = [];
        let total = 0;
        const hit = (make: () => TranscriptHit) => {
          total++;
          if (hits.length < limit) hits.push(make());
        };
        // A debate move names no evaluation entry, and the other way round.
        const evaluationMove = move !== undefined && (EVALUATION_TRANSCRIPT_MOVES as readonly string[]).includes(move);
        const debateMove = move !== undefined && !evaluationMove;
        const scans: { createdAt: string; scan: () => void }[] = [];
        if (kind !== 'evaluation' && kind !== 'run' && !evaluationMove) {
          for (const row of service.list()) {
            if (ideaSlug !== undefined && row.idea !== ideaSlug) continue;
            scans.push({ createdAt: row.createdAt, scan: () => scanDebate(row) });
          }
        }
        if ((kind === undefined || kind === 'run') && move === undefined) {
          for (const row of runTranscripts.rows()) {
            if (ideaSlug !== undefined && row.ideaSlug !== ideaSlug) continue;
            scans.push({ createdAt: row.createdAt, scan: () => scanRun(row) });
          }
        }
        if (kind !== 'debate' && kind !== 'run' && !debateMove) {
          for (const source of evaluationTranscripts.sources()) {
            if (ideaSlug !== undefined && source.summary.slug !== ideaSlug) continue;
            scans.push({
              createdAt: source.summary.startedAt,
              scan: () => evaluationTranscripts.scan(source, { words, who, move, from, to }, hit),
            });
          }
        }
        // Newest transcripts first, whatever their kind.
        scans.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        for (const s of scans) s.scan();

        function scanDebate(row: ReturnType<typeof service.list>[number]): void {
          const names = agentNames(row.id);
          for (const m of transcripts.messages(row.id)) {
            const day = m.at.slice(0, 10);
            if (from !== undefined && day < from) continue;
            if (to !== undefined && day > to) continue;
            if (move === 'MODERATOR' ? m.kind !== 'moderator' : move !== undefined && m.move !== move) continue;
            if (who !== undefined) {
              if (m.agent === null) continue;
              if (m.agent.toLocaleLowerCase() !== who && !(names.get(m.agent) ?? '').toLocaleLowerCase().includes(who))
                continue;
            }
            if (words.length > 0) {
              const content = m.content.toLocaleLowerCase();
              if (!words.every((w) => content.includes(w))) continue;
            }
            hit(() => ({
              kind: 'debate',
              id: row.id,
              title: row.topic,
              ideaSlug: row.idea,
              index: m.index,
              messageId: m.id,
              thread: m.thread,
              agent: m.agent,
              agentName: m.agent === null ? null : (names.get(m.agent) ?? m.agent),
              move: m.kind === 'moderator' ? 'MODERATOR' : m.move,
              at: m.at,
              snippet: snippetAround(m.content, words),
            }));
          }
        }
        function scanRun(row: RunListing): void {
          for (const m of runTranscripts.get(row.id)?.messages ?? []) {
            const day = m.at.slice(0, 10);
            if (from !== undefined && day < from) continue;
            if (to !== undefined && day > to) continue;
            if (who !== undefined && m.agent?.toLocaleLowerCase() !== who) continue;
            const content = m.content.toLocaleLowerCase();
            if (words.length > 0 && !words.every((w) => content.includes(w))) continue;
            hit(() => ({
              kind: 'run',
              id: row.id,
              title: `${row.topic} (${row.protocol})`,
              ideaSlug: row.ideaSlug,
              index: m.index,
              messageId: m.id,
              thread: m.thread,
              agent: m.agent,
              agentName: m.agent,
              move: null,
              at: m.at,
              snippet: snippetAround(m.content, words),
            }));
          }
        }
        return { hits, total, truncated: total > hits.length };
      },
    },
  };
}

/** Newer first by start; 0 for the same moment (a stable sort keeps their order). */
function newerFirst(a: TranscriptSummary, b: TranscriptSummary): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/** Lists each newest first, as one; of rows started at the same moment, an earlier list's first. */
function mergeNewestFirst(lists: readonly (readonly TranscriptSummary[])[]): TranscriptSummary[] {
  const out: TranscriptSummary[] = [];
  const at = lists.map(() => 0);
  for (;;) {
    let pick = -1;
    for (let k = 0; k < lists.length; k++) {
      const row = lists[k]?.[at[k] as number];
      if (row === undefined) continue;
      const best = pick < 0 ? undefined : lists[pick]?.[at[pick] as number];
      if (best === undefined || newerFirst(row, best) < 0) pick = k;
    }
    if (pick < 0) return out;
    out.push(lists[pick]?.[at[pick] as number] as TranscriptSummary);
    at[pick] = (at[pick] as number) + 1;
  }
}
