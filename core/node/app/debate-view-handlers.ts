import {
  type debateViewChannels,
  EVALUATION_TRANSCRIPT_MOVES,
  type LedgerCrux,
  type LedgerFalsifier,
  type TranscriptHit,
} from '../../contract';
import type { DebateHeader, DebateStatus } from '../../engine/debate-record';
import { LEDGER_FILE, upsertEntry } from '../../ledger/ledger-md';
import { calibrationOf } from '../../ledger/calibration';
import { safeWrite } from '../fs/atomic-write';
import { debateEventCount, debateHeaderJson, debateThreads } from '../sqlite/debate-view-queries';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { DebateCourses } from './debate-view/course';
import { buildCruxMap } from './debate-view/crux-map';
import { DebateDigests } from './debate-view/debate-digests';
import { EvaluationTranscripts } from './debate-view/evaluation-transcripts';
import { describeFalsifier, ledgerRowsOf, localDay, readLedgerFile } from './debate-view/ledger';
import { readLayout, writeLayout } from './debate-view/layout-file';
import { progressOf } from './debate-view/progress';
import { snippetAround, Transcripts } from './debate-view/transcripts';
import type { EvaluationReader } from './evaluation-reader';

/**
 * The handlers of the channels in core/contract/debate-view-channels.ts: a debate's progress, crux
 * maps and their stored positions, the crux and falsifier ledger (ledger.md), transcripts of debates
 * and evaluations and their search. Debates are read through the index's mirror of their logs and
 * folded on demand (cached until a log grows); evaluations through the evaluation channels' reader.
 * Nothing here writes a debate or an evaluation.
 */
export function debateViewHandlers(
  ctx: AppContext,
  evaluations: EvaluationReader,
): AreaHandlers<keyof typeof debateViewChannels> {
  const { ws, service, debates } = ctx;
  const digests = new DebateDigests(ws.root, ws.db, service);
  const courses = new DebateCourses(ws.root, ws.db, service);
  const transcripts = new Transcripts(ws.db);
  const evaluationTranscripts = new EvaluationTranscripts(evaluations, () => ws.taxonomy.categories);
  const now = () => ctx.options.clock?.now() ?? new Date();

  /** A debate's agents' names by id, from its header (the log's first record). */
  const agentNames = (id: string): Map<string, string> => {
    const json = debateHeaderJson(ws.db, id);
    if (json === null) return new Map();
    const header = (JSON.parse(json) as { header: DebateHeader }).header;
    return new Map(header.agents.map((a) => [a.id, a.name]));
  };

  const statusOf = (id: string, fallback: DebateStatus): DebateStatus => debates.recordedStatus(id) ?? fallback;

  /** Every debate's digest; a log that cannot be folded is logged and left out rather than failing the view. */
  const allDigests = () =>
    service.list().flatMap((row) => {
      try {
        return [digests.get(row.id)];
      } catch (error) {
        ctx.log.warn(`debate ${row.id} could not be read for the ledger`, {
          error: error instanceof Error ? error.message : String(error),
        });
        return [];
      }
    });

  const ledgerRows = (only?: string) => {
    const file = readLedgerFile(ws.root);
    const today = localDay(now());
    const falsifiers: LedgerFalsifier[] = [];
    const cruxes: LedgerCrux[] = [];
    const chosen = only === undefined ? allDigests() : [digests.get(only)];
    for (const digest of chosen) {
      const rows = ledgerRowsOf(digest, transcripts.indexById(digest.header.id), file.entries, today);
      falsifiers.push(...rows.falsifiers);
      cruxes.push(...rows.cruxes);
    }
    return { file, today, falsifiers, cruxes };
  };

  const summaryOf = (row: ReturnType<typeof service.list>[number]) => ({
    kind: 'debate' as const,
    id: row.id,
    title: row.topic,
    ideaSlug: row.idea,
    status: row.status as DebateStatus,
    provider: row.provider,
    createdAt: row.createdAt,
    messages: transcripts.messages(row.id).length,
  });

  return {
    impl: {
      'debates:progress': ({ id }) => {
        ctx.open();
        const digest = digests.get(id);
        const events = debateEventCount(ws.db, id);
        return progressOf(id, digest, statusOf(id, digest.outcome.status), debates.isLive(id), events);
      },

      'debates:cruxMap': ({ id }) => {
        ctx.open();
        const digest = digests.get(id);
        const layout = readLayout(ws.root, service.logPathOf(id), ctx.log);
        return buildCruxMap(digest, transcripts.messages(id), statusOf(id, digest.outcome.status), layout);
      },

      'debates:course': ({ id }) => {
        ctx.open();
        const digest = digests.get(id);
        const course = courses.get(id);
        const row = service.list().find((r) => r.id === id);
        return { ...course, ideaSlug: row?.idea ?? null, status: statusOf(id, digest.outcome.status) };
      },

      'debates:saveCruxLayout': ({ id, positions }) => {
        ctx.open();
        const path = writeLayout(ws.root, service.logPathOf(id), positions, now());
        return { path, saved: Object.keys(positions).length };
      },

      'ledger:list': () => {
        ctx.open();
        const { file, today, falsifiers, cruxes } = ledgerRows();
        return { falsifiers, cruxes, file: LEDGER_FILE, problems: file.problems, today };
      },

      'ledger:calibration': () => {
        ctx.open();
        const { falsifiers } = ledgerRows();
        return {
          agents: calibrationOf(
            falsifiers.flatMap((f) =>
              f.resolution
                ? [
                    {
                      agent: f.agent,
                      agentName: f.agentName,
                      side: f.side,
                      confidence: f.confidence,
                      outcome: f.resolution.outcome,
                    },
                  ]
                : [],
            ),
          ),
        };
      },

      'ledger:resolveFalsifier': ({ debateId, thread, agent, outcome, resolvedOn, note }) => {
        ctx.open();
        const { file, falsifiers } = ledgerRows(debateId);
        const key = `${debateId}/${thread}/${agent}`;
        const falsifier = falsifiers.find((f) => f.key === key);
        if (!falsifier) {
          throw new UserError(`debate ${debateId} has no falsifier by ${agent} in thread ${thread}`);
        }
        const recordedAt = now().toISOString();
        const text = upsertEntry(file.text, {
          key,
          outcome,
          resolvedOn,
          recordedAt,
          falsifier: describeFalsifier(falsifier),
          note,
        });
        // Read, changed and written in one go; if the file changes in between, the researcher's
        // version stays and ours goes beside it (the answer says so).
        const written = safeWrite(ws.root, LEDGER_FILE, text, file.hash, now());
        return {
          falsifier: written.conflict
            ? falsifier
            : { ...falsifier, status: 'resolved', resolution: { outcome, resolvedOn, note: note.trim(), recordedAt } },
          path: written.path,
          conflict: written.conflict,
        };
      },

      'transcripts:list': () => {
        ctx.open();
        const all = [...service.list().map(summaryOf), ...evaluationTranscripts.list()];
        // Newest first across both kinds (each list already is; ties keep debates first).
        return {
          transcripts: all.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0)),
        };
      },

      'transcripts:get': ({ kind, id }) => {
        ctx.open();
        if (kind === 'evaluation') return evaluationTranscripts.get(id);
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
        ctx.open();
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
        if (kind !== 'evaluation' && !evaluationMove) {
          for (const row of service.list()) {
            if (ideaSlug !== undefined && row.idea !== ideaSlug) continue;
            scans.push({ createdAt: row.createdAt, scan: () => scanDebate(row) });
          }
        }
        if (kind !== 'debate' && !debateMove) {
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
        return { hits, total, truncated: total > hits.length };
      },
    },
  };
}
