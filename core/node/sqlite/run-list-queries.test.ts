import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import { listRuns, runListing } from './run-list-queries';
import { runStatus } from './run-queries';

/** An index with a finished debate, a paused evaluation and a running debate, as journals write them. */
function indexWithRuns(): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  const run = db.prepare(
    `INSERT INTO runs (id, protocol, idea_slug, topic, status, provider, created_at, updated_at, cost_usd)
     VALUES (?, ?, ?, ?, ?, 'simulated', ?, ?, ?)`,
  );
  run.run('d1', 'crux', null, 'Bike-share', 'cancelled', '2026-01-01', '2026-01-02', 0.25);
  run.run('e1', 'evaluation', 'solar', 'Solar co-op', 'paused', '2026-01-03', '2026-01-03', 0.5);
  run.run('d2', 'crux', 'solar', 'Solar', 'running', '2026-01-04', '2026-01-04', 0);
  const record = db.prepare(
    'INSERT INTO run_events (run_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)',
  );
  const status = (id: string, seq: number, body: object) =>
    record.run(id, seq, 'status', '2026-01-02', JSON.stringify({ type: 'status', ...body }));
  // The reason shown is the last status record's: an earlier pause's reason does not leak into the end.
  status('d1', 5, { status: 'paused' });
  status('d1', 9, { status: 'cancelled', reason: 'cancelled by the researcher' });
  status('e1', 3, { status: 'paused', reason: 'app closed' });
  record.run('d2', 0, 'debate_created', '2026-01-04', '{}');
  return db;
}

describe('run list queries', () => {
  it('list every run newest first with its last logged reason, filter by protocol and status, and read one', () => {
    const db = indexWithRuns();
    const brief = (rows: ReturnType<typeof listRuns>) => rows.map((r) => [r.id, r.protocol, r.status, r.reason]);
    expect({
      all: brief(listRuns(db)),
      crux: brief(listRuns(db, { protocol: 'crux' })),
      paused: brief(listRuns(db, { status: 'paused' })),
      none: listRuns(db, { protocol: 'arena' }),
      one: runListing(db, 'e1'),
      unknown: runListing(db, 'nope'),
      status: runStatus(db, 'd1'),
      unknownStatus: runStatus(db, 'nope'),
    }).toEqual({
      all: [
        ['d2', 'crux', 'running', null],
        ['e1', 'evaluation', 'paused', 'app closed'],
        ['d1', 'crux', 'cancelled', 'cancelled by the researcher'],
      ],
      crux: [
        ['d2', 'crux', 'running', null],
        ['d1', 'crux', 'cancelled', 'cancelled by the researcher'],
      ],
      paused: [['e1', 'evaluation', 'paused', 'app closed']],
      none: [],
      one: {
        id: 'e1',
        protocol: 'evaluation',
        ideaSlug: 'solar',
        topic: 'Solar co-op',
        status: 'paused',
        reason: 'app closed',
        provider: 'simulated',
        createdAt: '2026-01-03',
        updatedAt: '2026-01-03',
        costUsd: 0.5,
      },
      unknown: null,
      status: 'cancelled',
      unknownStatus: null,
    });
  });
});
