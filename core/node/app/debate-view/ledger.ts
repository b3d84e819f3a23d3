import { join } from 'node:path';
import type { LedgerCrux, LedgerFalsifier, LedgerStatus } from '../../../contract';
import { deadlineDay } from '../../../ledger/deadline';
import { LEDGER_FILE, type LedgerEntry, type LedgerProblem, ledgerKey, parseLedger } from '../../../ledger/ledger-md';
import { readForEdit } from '../../fs/atomic-write';
import type { DebateDigest } from './debate-digests';

/** A day as `YYYY-MM-DD` in the computer's own time zone: "today" is the researcher's today. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The researcher's ledger file as it is now (read on every look, so edits by hand count at once). */
export function readLedgerFile(root: string): {
  text: string | null;
  hash: string | null;
  entries: Map<string, LedgerEntry>;
  problems: LedgerProblem[];
} {
  // Text and hash from one read: the hash is what a resolution is later written against.
  const read = readForEdit(join(root, LEDGER_FILE));
  const parsed = read === null ? { entries: new Map<string, LedgerEntry>(), problems: [] } : parseLedger(read.text);
  return { text: read?.text ?? null, hash: read?.hash ?? null, ...parsed };
}

function statusOf(deadlineDate: string | null, resolved: boolean, today: string): LedgerStatus {
  if (resolved) return 'resolved';
  if (deadlineDate === null) return 'undated';
  return deadlineDate < today ? 'overdue' : 'open';
}

/**
 * One debate's rows of the ledger. Its falsifiers: for every thread and agent, the crux's final
 * position's falsifier once the thread crystallized, otherwise the agent's latest valid one in the
 * thread. Its cruxes: every thread with a binary question.
 */
export function ledgerRowsOf(
  digest: DebateDigest,
  indexOf: ReadonlyMap<string, number>,
  entries: ReadonlyMap<string, LedgerEntry>,
  today: string,
): { falsifiers: LedgerFalsifier[]; cruxes: LedgerCrux[] } {
  const { header, state } = digest;
  const created = new Date(header.createdAt);
  const names = new Map(header.agents.map((a) => [a.id, a.name]));
  const falsifiers: LedgerFalsifier[] = [];
  const cruxes: LedgerCrux[] = [];
  for (const thread of state.threads) {
    const question = thread.crux?.question ?? thread.binaryQuestion;
    const own: LedgerFalsifier[] = [];
    for (const agent of header.agents.map((a) => a.id)) {
      const position = thread.crux?.positions[agent];
      const falsifier = position?.falsifier ?? thread.falsifiers[agent];
      if (!falsifier) continue;
      // The side and the confidence in it come from the same place: the final position, else the
      // latest stance, else the commitment (whose confidence also stands for a stance on its side
      // that named none).
      const commitment = thread.commitments[agent];
      const held = position ?? thread.stances[agent] ?? commitment;
      const confidence =
        held?.confidence ?? (commitment && commitment.side === held?.side ? commitment.confidence : null);
      const key = ledgerKey(header.id, thread.id, agent);
      const entry = entries.get(key);
      const deadlineDate = deadlineDay(falsifier.deadline, created);
      const messageId = digest.falsifierMessages[`${thread.id}/${agent}`] ?? null;
      own.push({
        key,
        debateId: header.id,
        debateTopic: header.topic,
        ideaSlug: header.ideaSlug,
        debateCreatedAt: header.createdAt,
        thread: thread.id,
        question,
        agent,
        agentName: names.get(agent) ?? agent,
        side: held?.side ?? null,
        confidence,
        metric: falsifier.metric,
        threshold: falsifier.threshold,
        deadline: falsifier.deadline,
        deadlineDate,
        status: statusOf(deadlineDate, entry !== undefined, today),
        resolution: entry
          ? { outcome: entry.outcome, resolvedOn: entry.resolvedOn, note: entry.note, recordedAt: entry.recordedAt }
          : null,
        messageId,
        index: messageId === null ? null : (indexOf.get(messageId) ?? null),
      });
    }
    falsifiers.push(...own);
    if (!question) continue;
    const unresolved = own.filter((f) => f.resolution === null);
    const dated = unresolved.flatMap((f) => (f.deadlineDate ? [f.deadlineDate] : [])).sort();
    let status: LedgerStatus = 'undated';
    if (own.length > 0 && unresolved.length === 0) status = 'resolved';
    else if (unresolved.some((f) => f.status === 'overdue')) status = 'overdue';
    else if (unresolved.some((f) => f.status === 'open')) status = 'open';
    cruxes.push({
      key: `${header.id}/${thread.id}`,
      debateId: header.id,
      debateTopic: header.topic,
      ideaSlug: header.ideaSlug,
      debateCreatedAt: header.createdAt,
      thread: thread.id,
      question,
      threadStatus: thread.status,
      crystallized: thread.crux !== null,
      validated: thread.crux?.validated ?? false,
      primary: state.primaryCrux === thread.id,
      dcg: thread.crux ? thread.crux.dcg.score : null,
      falsifiers: own.length,
      resolved: own.length - unresolved.length,
      nextDeadline: dated[0] ?? null,
      status,
    });
  }
  return { falsifiers, cruxes };
}

/** The line of an entry that tells a reader of the file which falsifier it is. */
export function describeFalsifier(f: LedgerFalsifier): string {
  const on = f.question ? ` on "${f.question}"` : '';
  return `${f.agentName}${f.side ? ` (${f.side})` : ''}${on}: ${f.metric} ${f.threshold} by ${f.deadline}`;
}
