import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DebateHeader, NewDebateRecord, RunHeader } from '../../engine/debate-record';
import { migrate } from '../sqlite/migrations';
import { listCruxRuns, runEventRows, runRow } from '../sqlite/run-queries';
import { LinkRefusedError } from '../fs/read-inside';
import { DebateJournal, indexRunLogs } from './journal';

let root: string;
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  rmSync(root, { recursive: true, force: true });
});

function index(): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  open.push(db);
  return db;
}

const debateHeader: DebateHeader = {
  id: '01JDEBATE0000000000000000A',
  protocol: 'crux',
  topic: 'Should the co-op buy the roof?',
  ideaSlug: 'solar',
  agents: [
    { id: 'ana', name: 'Ana', persona: null, interests: [], tier: 'standard' },
    { id: 'ben', name: 'Ben', persona: null, interests: [], tier: 'standard' },
  ],
  config: {},
  provider: 'simulated',
  seed: 1,
  limits: { maxMessages: 10, maxDurationMs: 60_000, budgetUsd: 1, stagnationTurns: 3, concurrency: 2 },
  createdAt: '2026-01-01T10:00:00.000Z',
};
const evaluationHeader: RunHeader = {
  id: '01JEVALUATION00000000000A',
  protocol: 'evaluation',
  version: 1,
  ideaSlug: 'solar',
  topic: 'Solar co-ops',
  provider: 'simulated',
  createdAt: '2026-01-02T10:00:00.000Z',
  setup: { slug: 'solar' },
};
const call = (costUsd: number): NewDebateRecord => ({
  type: 'llm_call',
  agent: null,
  purpose: 'turn',
  call: {
    provider: 'simulated',
    model: 'sim',
    tier: 'standard',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    latencyMs: 1,
    costUsd,
    ok: true,
  },
});

/**
 * What the index holds of the two runs, but for the time an append sets (a rebuilt row has its start
 * time instead), each record's JSON read back (a rebuilt row re-encodes the record it parsed).
 */
function indexed(db: Database.Database) {
  const ids = [debateHeader.id, evaluationHeader.id];
  return {
    runs: ids.map((id) => {
      const { updatedAt, ...row } = runRow(db, id) ?? { updatedAt: null };
      return row;
    }),
    events: ids.flatMap((id) =>
      runEventRows(db, id).map(({ json, ...row }) => ({ runId: id, ...row, payload: JSON.parse(json) })),
    ),
  };
}

describe('the run logs and the index', () => {
  it('a rebuilt index gets back every run from its log, a debate’s and an evaluation’s, and lists only the debate', () => {
    root = mkdtempSync(join(tmpdir(), 'crucible-journal-'));
    mkdirSync(join(root, 'ideas', 'solar'), { recursive: true });
    const first = index();
    const debate = DebateJournal.create(root, first, debateHeader);
    debate.append([{ type: 'input', input: { kind: 'message' } }, call(0.02)]);
    debate.append([{ type: 'status', status: 'completed' }]);
    debate.close();
    const evaluation = DebateJournal.start(root, first, 'ideas/solar/evaluations/e1.run.jsonl', {
      type: 'run_created',
      header: evaluationHeader,
    });
    evaluation.append([call(0.05), { type: 'status', status: 'paused', reason: 'app closed' }]);
    evaluation.close();
    // The evaluation's replay script sits beside its log and is not a log: it is never read as one.
    writeFileSync(join(root, 'ideas', 'solar', 'evaluations', 'e1.jsonl'), 'not a run log\n');
    const before = indexed(first);

    const rebuilt = index();
    const { indexed: ids, errors } = indexRunLogs(root, rebuilt);
    expect({
      ids: ids.sort(),
      errors,
      index: indexed(rebuilt),
      listed: listCruxRuns(rebuilt).map((r) => r.id),
      again: indexRunLogs(root, rebuilt).indexed,
    }).toEqual({
      ids: [debateHeader.id, evaluationHeader.id].sort(),
      errors: [],
      index: before,
      listed: [debateHeader.id],
      again: [],
    });
    // The rows were the journal's own to begin with: statuses and costs from the appends.
    expect(before.runs).toEqual([
      expect.objectContaining({
        id: debateHeader.id,
        protocol: 'crux',
        status: 'completed',
        logPath: `ideas/solar/debates/${debateHeader.id}.jsonl`,
        costUsd: 0.02,
      }),
      expect.objectContaining({
        id: evaluationHeader.id,
        protocol: 'evaluation',
        status: 'paused',
        logPath: 'ideas/solar/evaluations/e1.run.jsonl',
        costUsd: 0.05,
      }),
    ]);
    expect(before.events.map((e) => `${e.runId === debateHeader.id ? 'd' : 'e'}${e.seq}:${e.type}`)).toEqual([
      'd0:debate_created',
      'd1:input',
      'd2:llm_call',
      'd3:status',
      'e0:run_created',
      'e1:llm_call',
      'e2:status',
    ]);
  });
});

const tallyHeader: RunHeader = { ...evaluationHeader, id: '01jrun', protocol: 'tally', ideaSlug: null };

describe('a logs folder that is a link', () => {
  it('is refused before anything is written, there or in the index, for a debate and any other run', () => {
    root = mkdtempSync(join(tmpdir(), 'crucible-journal-link-'));
    const ws = join(root, 'ws');
    const outside = join(root, 'outside');
    mkdirSync(join(ws, 'ideas', 'solar'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(ws, 'ideas', 'solar', 'debates'));
    symlinkSync(outside, join(ws, 'tallies'));
    const db = index();
    const attempts = [
      () => DebateJournal.create(ws, db, debateHeader),
      () => DebateJournal.start(ws, db, 'tallies/01jrun.jsonl', { type: 'run_created', header: tallyHeader }),
    ].map((attempt) => {
      try {
        attempt();
        return 'written';
      } catch (error) {
        return error instanceof LinkRefusedError ? error.message : String(error);
      }
    });
    expect({
      attempts,
      outside: readdirSync(outside),
      rows: listCruxRuns(db).length,
      tally: runRow(db, tallyHeader.id),
    }).toEqual({
      attempts: [
        'ideas/solar/debates is a symbolic link, or lies under one; Crucible does not write through links',
        'tallies is a symbolic link, or lies under one; Crucible does not write through links',
      ],
      outside: [],
      rows: 0,
      tally: null,
    });
    expect(existsSync(join(ws, 'ideas', 'solar', 'debates'))).toBe(true);
  });
});

describe('a logs folder swapped for a link after the run began', () => {
  it('is refused on resume: the copy behind the link is neither read nor appended to', () => {
    root = mkdtempSync(join(tmpdir(), 'crucible-journal-swap-'));
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'tallies'), { recursive: true });
    const db = index();
    const rel = 'tallies/01jrun.jsonl';
    const journal = DebateJournal.start(ws, db, rel, { type: 'run_created', header: tallyHeader });
    journal.close();
    // The folder moves out of the workspace and a link to it takes its place.
    const outside = join(root, 'outside');
    renameSync(join(ws, 'tallies'), outside);
    symlinkSync(outside, join(ws, 'tallies'));
    const before = readFileSync(join(outside, '01jrun.jsonl'), 'utf8');
    let refusal = '';
    try {
      DebateJournal.resume(ws, db, rel);
    } catch (error) {
      refusal = error instanceof LinkRefusedError ? error.message : String(error);
    }
    expect({ refusal, after: readFileSync(join(outside, '01jrun.jsonl'), 'utf8') }).toEqual({
      refusal: 'tallies is a symbolic link, or lies under one; Crucible does not write through links',
      after: before,
    });
  });
});
