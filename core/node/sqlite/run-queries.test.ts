import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import {
  appendRunEvents,
  cruxRunLogPath,
  indexRunEvents,
  listCruxRuns,
  type RunRowHeader,
  runEventRows,
  runLogPaths,
  runResultJson,
  runRow,
  runStatus,
  setRunResult,
  upsertRunRow,
} from './run-queries';

function migrated(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

const debate = (id: string, createdAt: string): RunRowHeader => ({
  id,
  protocol: 'crux',
  ideaSlug: null,
  topic: `Topic of ${id}`,
  provider: 'simulated',
  createdAt,
});
const evaluation: RunRowHeader = {
  id: 'e1',
  protocol: 'evaluation',
  ideaSlug: 'solar',
  topic: 'Solar co-ops',
  provider: 'simulated',
  createdAt: '2026-01-05',
};
const row = (seq: number, type: string) => ({ seq, type, at: `2026-01-0${seq + 1}`, json: `{"seq":${seq}}` });

describe('run queries', () => {
  it('record runs of every protocol and keep what a second upsert does not change', () => {
    const db = migrated();
    upsertRunRow(db, debate('d1', '2026-01-01'), 'debates/d1.jsonl', 'running', 0);
    upsertRunRow(db, evaluation, 'ideas/solar/evaluations/e1.run.jsonl', 'running', 0);
    setRunResult(db, 'd1', '{"cruxes":[]}');
    // Found again in the folder, moved and further on: the row follows, its result and creation stay.
    upsertRunRow(db, { ...debate('d1', '2026-02-01'), topic: 'ignored' }, 'debates/moved.jsonl', 'completed', 0.5);
    expect(db.prepare('SELECT * FROM runs ORDER BY id').all()).toEqual([
      {
        id: 'd1',
        protocol: 'crux',
        idea_slug: null,
        topic: 'Topic of d1',
        status: 'completed',
        provider: 'simulated',
        created_at: '2026-01-01',
        updated_at: '2026-01-01',
        log_path: 'debates/moved.jsonl',
        result_json: '{"cruxes":[]}',
        cost_usd: 0.5,
      },
      {
        id: 'e1',
        protocol: 'evaluation',
        idea_slug: 'solar',
        topic: 'Solar co-ops',
        status: 'running',
        provider: 'simulated',
        created_at: '2026-01-05',
        updated_at: '2026-01-05',
        log_path: 'ideas/solar/evaluations/e1.run.jsonl',
        result_json: null,
        cost_usd: 0,
      },
    ]);
    db.close();
  });

  it('mirror appended records with the row’s status, time and cost; a batch without a status keeps it', () => {
    const db = migrated();
    upsertRunRow(db, debate('d1', '2026-01-01'), 'debates/d1.jsonl', 'running', 0);
    appendRunEvents(db, 'd1', [row(0, 'debate_created'), row(1, 'status')], {
      status: 'paused',
      updatedAt: '2026-01-02',
      costUsd: 0,
    });
    appendRunEvents(db, 'd1', [row(2, 'llm_call')], { status: null, updatedAt: '2026-01-03', costUsd: 0.25 });
    const after = {
      row: runRow(db, 'd1'),
      events: runEventRows(db, 'd1'),
      status: runStatus(db, 'd1'),
      unknown: [runStatus(db, 'nope'), runRow(db, 'nope'), runEventRows(db, 'nope')],
    };
    expect(after).toEqual({
      row: {
        ...debate('d1', '2026-01-01'),
        status: 'paused',
        updatedAt: '2026-01-03',
        logPath: 'debates/d1.jsonl',
        resultJson: null,
        costUsd: 0.25,
      },
      events: [row(0, 'debate_created'), row(1, 'status'), row(2, 'llm_call')],
      status: 'paused',
      unknown: [null, null, []],
    });
    db.close();
  });

  it('index a whole log again over the rows it already has', () => {
    const db = migrated();
    upsertRunRow(db, evaluation, 'ideas/solar/evaluations/e1.run.jsonl', 'running', 0);
    indexRunEvents(db, 'e1', [row(0, 'run_created'), { ...row(1, 'input'), json: 'torn before' }]);
    indexRunEvents(db, 'e1', [row(0, 'run_created'), row(1, 'input'), row(2, 'event')]);
    expect(db.prepare('SELECT seq, payload_json FROM run_events ORDER BY seq').all()).toEqual([
      { seq: 0, payload_json: '{"seq":0}' },
      { seq: 1, payload_json: '{"seq":1}' },
      { seq: 2, payload_json: '{"seq":2}' },
    ]);
    db.close();
  });

  it('list only crux debates, newest first, and find a log path only for a crux debate', () => {
    const db = migrated();
    upsertRunRow(db, debate('d1', '2026-01-01'), 'debates/d1.jsonl', 'completed', 0.1);
    upsertRunRow(db, debate('d2', '2026-01-03'), 'debates/d2.jsonl', 'running', 0);
    upsertRunRow(db, evaluation, 'ideas/solar/evaluations/e1.run.jsonl', 'running', 0);
    setRunResult(db, 'd1', '{"cruxes":["c1"]}');
    expect({
      listed: listCruxRuns(db),
      logPaths: runLogPaths(db).sort(),
      crux: cruxRunLogPath(db, 'd2'),
      evaluationAsCrux: cruxRunLogPath(db, 'e1'),
      unknown: cruxRunLogPath(db, 'nope'),
      result: runResultJson(db, 'd1'),
      noResult: runResultJson(db, 'd2'),
      unknownResult: runResultJson(db, 'nope'),
    }).toEqual({
      listed: [
        {
          id: 'd2',
          topic: 'Topic of d2',
          idea: null,
          status: 'running',
          provider: 'simulated',
          createdAt: '2026-01-03',
          costUsd: 0,
        },
        {
          id: 'd1',
          topic: 'Topic of d1',
          idea: null,
          status: 'completed',
          provider: 'simulated',
          createdAt: '2026-01-01',
          costUsd: 0.1,
        },
      ],
      logPaths: ['debates/d1.jsonl', 'debates/d2.jsonl', 'ideas/solar/evaluations/e1.run.jsonl'],
      crux: 'debates/d2.jsonl',
      evaluationAsCrux: null,
      unknown: null,
      result: '{"cruxes":["c1"]}',
      noResult: null,
      unknownResult: null,
    });
    db.close();
  });
});
