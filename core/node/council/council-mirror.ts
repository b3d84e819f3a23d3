import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  CONSENSUS_HISTORY,
  PROPOSAL_FOLDERS,
  type ProposalFile,
  proposalPath,
  WEIGHT_HISTORY,
  WEIGHTS_FILE,
} from '../../council/recorder';
import { lastVersion } from '../../council/state';
import { EPISODES_FILE, parseEpisodes } from '../../memory/episode';
import { parseLines } from '../../memory/jsonl';
import { readTextInside } from '../fs/read-inside';
import { sha256 } from '../hasher';
import {
  type CouncilMirror,
  type DecisionRow,
  type ProposalRow,
  readCouncilMirror,
  replaceCouncilMirror,
  type WeightHistoryRow,
  type WeightRow,
} from '../sqlite/council-mirror-queries';
import { getMeta, setMeta } from '../sqlite/index-sql';

/**
 * The index's mirror of `council/` (proposals, every protocol's episodes, decisions, weights and
 * their history), always read back from the files: `councilMirror` compares a hash of every council
 * file with the one the mirror was made from and, when they differ (a task ran, another process
 * wrote, the researcher edited a file, the index was deleted), throws the rows away and reads them
 * again from the files. The files are the truth; nothing lives only in the index.
 */
const STAMP = 'council:mirror';
/** What could not be read when the mirror was last made (the files have not changed since). */
const PROBLEMS = 'council:mirror-problems';

export interface MirrorProblem {
  file: string;
  line: number | null;
  reason: string;
}

interface CouncilText {
  path: string;
  text: string;
}

/** Every file under `council/` the mirror reads, in a fixed order, with its text (links refused). */
function councilTexts(root: string): { texts: CouncilText[]; problems: MirrorProblem[] } {
  const texts: CouncilText[] = [];
  const problems: MirrorProblem[] = [];
  const read = (path: string) => {
    if (!existsSync(join(root, path))) return;
    try {
      texts.push({ path, text: readTextInside(root, path) });
    } catch (error) {
      problems.push({ file: path, line: null, reason: (error as Error).message });
    }
  };
  for (const folder of PROPOSAL_FOLDERS) {
    const dir = join(root, 'council', 'proposals', folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort())
      read(proposalPath(folder, name.slice(0, -'.json'.length)));
  }
  for (const path of [EPISODES_FILE, CONSENSUS_HISTORY, WEIGHTS_FILE, WEIGHT_HISTORY]) read(path);
  return { texts, problems };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function proposalRow(path: string, text: string): ProposalRow {
  const record = JSON.parse(text) as ProposalFile;
  const folder = path.split('/')[2] as string;
  const p = record.proposal;
  const v = p.versions.length > 0 ? lastVersion(p) : null;
  return {
    id: record.id,
    taskId: record.taskId,
    task: record.task,
    ideaSlug: record.idea,
    folder,
    status: p.status,
    stakes: v?.stakes ?? null,
    decision: p.decision,
    decidedBy: p.decidedBy,
    ladder: p.ladder,
    versions: p.versions.length,
    goal: v?.output.goal ?? '',
    recordJson: text,
  };
}

/** The rows of the council's files, and what could not be read (file and line). */
export function mirrorOf(texts: readonly CouncilText[]): { mirror: CouncilMirror; problems: MirrorProblem[] } {
  const mirror: CouncilMirror = { proposals: [], episodes: [], decisions: [], weights: [], weightHistory: [] };
  const problems: MirrorProblem[] = [];
  for (const { path, text } of texts) {
    if (path.startsWith('council/proposals/')) {
      try {
        mirror.proposals.push(proposalRow(path, text));
      } catch (error) {
        problems.push({ file: path, line: null, reason: `not a council proposal: ${(error as Error).message}` });
      }
    } else if (path === EPISODES_FILE) {
      const { episodes, skipped } = parseEpisodes(text);
      const lines = parseLines<{ key?: unknown }>(text).numbered;
      const lineOf = new Map(lines.map((l) => [l.value.key, l.line]));
      for (const e of episodes)
        mirror.episodes.push({
          key: e.key,
          line: lineOf.get(e.key) ?? 0,
          runId: e.id,
          protocol: e.protocol,
          ideaSlug: e.idea,
          at: e.at,
          task: e.task,
          outcome: e.outcome,
          episodeJson: JSON.stringify(e),
        });
      for (const s of skipped) problems.push({ file: path, line: s.line, reason: s.reason });
    } else if (path === CONSENSUS_HISTORY || path === WEIGHT_HISTORY) {
      const { numbered, bad } = parseLines<Record<string, unknown>>(text);
      for (const b of bad) problems.push({ file: path, line: b.line, reason: b.reason });
      for (const { line, value: r } of numbered) {
        const key = str(r.key);
        if (key === null) {
          problems.push({ file: path, line, reason: 'key: a line needs one' });
          continue;
        }
        if (path === CONSENSUS_HISTORY)
          mirror.decisions.push({
            key,
            line,
            taskId: str(r.taskId),
            proposal: str(r.proposal),
            at: str(r.at),
            decision: str(r.decision),
            decidedBy: str(r.decidedBy),
            precedent: r.precedent === true ? 1 : 0,
            note: str(r.note),
            recordJson: JSON.stringify(r),
          } satisfies DecisionRow);
        else
          mirror.weightHistory.push({
            key,
            line,
            taskId: str(r.taskId),
            at: str(r.at),
            agent: str(r.agent),
            value: str(r.value),
            delta: num(r.delta),
            fromWeight: num(r.from),
            toWeight: num(r.to),
            refused: r.refused === true ? 1 : 0,
            reason: str(r.reason),
          } satisfies WeightHistoryRow);
      }
    } else if (path === WEIGHTS_FILE) {
      try {
        const weights = JSON.parse(text) as Record<string, Record<string, unknown>>;
        for (const [agent, values] of Object.entries(weights))
          for (const [value, weight] of Object.entries(values ?? {}))
            if (num(weight) !== null)
              mirror.weights.push({ agent, value, weight: weight as number } satisfies WeightRow);
      } catch (error) {
        problems.push({ file: path, line: null, reason: `not JSON: ${(error as Error).message}` });
      }
    }
  }
  // Two lines with one key (a hand-merged file): the first is the one every reader keeps.
  const firstOf = <T extends { key: string }>(rows: T[]) => {
    const seen = new Set<string>();
    return rows.filter((r) => {
      if (seen.has(r.key)) return false;
      seen.add(r.key);
      return true;
    });
  };
  mirror.episodes = firstOf(mirror.episodes);
  mirror.decisions = firstOf(mirror.decisions);
  mirror.weightHistory = firstOf(mirror.weightHistory);
  return { mirror, problems };
}

/**
 * The mirror, brought up to date with the files first (rebuilt when any council file changed since
 * it was made), and what could not be read.
 */
export function councilMirror(
  root: string,
  db: Database.Database,
): { mirror: CouncilMirror; problems: MirrorProblem[]; rebuilt: boolean } {
  const { texts, problems } = councilTexts(root);
  const stamp = sha256(JSON.stringify(texts.map((t) => [t.path, sha256(t.text)])));
  if (getMeta(db, STAMP) === stamp) {
    const known = JSON.parse(getMeta(db, PROBLEMS) ?? '[]') as MirrorProblem[];
    return { mirror: readCouncilMirror(db), problems: known, rebuilt: false };
  }
  const { mirror, problems: unread } = mirrorOf(texts);
  const all = [...problems, ...unread];
  replaceCouncilMirror(db, mirror, () => {
    setMeta(db, STAMP, stamp);
    setMeta(db, PROBLEMS, JSON.stringify(all));
  });
  return { mirror: readCouncilMirror(db), problems: all, rebuilt: true };
}
