import type { LedgerCrux, LedgerFalsifier, ledgerChannels } from '../../contract';
import { calibrationOf } from '../../ledger/calibration';
import { earlyOutcomeRefusal } from '../../ledger/early-outcome';
import { LEDGER_FILE, upsertEntry } from '../../ledger/ledger-md';
import { safeWrite } from '../fs/atomic-write';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import type { DebateReads } from './debate-view/debate-reads';
import { describeFalsifier, ledgerRowsOf, localDay, readLedgerFile } from './debate-view/ledger';

/**
 * The handlers of the channels in core/contract/ledger-channels.ts: every crux and falsifier of
 * every debate (folded from the logs through the shared DebateReads) beside what the researcher
 * recorded in ledger.md, each persona's calibration, and recording how a falsifier resolved (the
 * one write, to ledger.md, through a safe write).
 */
export function ledgerHandlers(ctx: AppContext, reads: DebateReads): AreaHandlers<keyof typeof ledgerChannels> {
  const { ws, service } = ctx;
  const { digests, transcripts } = reads;
  const now = () => ctx.options.clock?.now() ?? new Date();

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

  return {
    impl: {
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

      'ledger:resolveFalsifier': ({ debateId, thread, agent, outcome, resolvedOn, note, early }) => {
        ctx.open();
        const { file, falsifiers, today } = ledgerRows(debateId);
        const key = `${debateId}/${thread}/${agent}`;
        const falsifier = falsifiers.find((f) => f.key === key);
        if (!falsifier) {
          throw new UserError(`debate ${debateId} has no falsifier by ${agent} in thread ${thread}`);
        }
        const refusal = earlyOutcomeRefusal(falsifier, outcome, resolvedOn, today, early);
        if (refusal) throw new UserError(refusal);
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
    },
  };
}
