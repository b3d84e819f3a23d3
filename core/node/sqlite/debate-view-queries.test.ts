import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  debateEventCount,
  debateEventsAfter,
  debateHeaderJson,
  debateThreads,
  lastDebateSeq,
} from './debate-view-queries';
import { migrate } from './migrations';

/** An index holding one debate's mirrored log: its header, inputs and events as a journal writes them. */
function indexWithDebate(): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  db.prepare(
    `INSERT INTO runs (id, protocol, topic, status, created_at, updated_at)
     VALUES ('d1', 'crux', 'Solar co-ops', 'running', '2026-01-01', '2026-01-01')`,
  ).run();
  const insert = db.prepare('INSERT INTO run_events (run_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)');
  const records: [string, object][] = [
    ['debate_created', { header: { id: 'd1', agents: [{ id: 'ana', name: 'Ana' }] } }],
    ['event', { event: { type: 'thread_opened', thread: 't1', topic: 'Cost' } }],
    ['input', { input: { kind: 'message', thread: 't1' } }],
    ['event', { event: { type: 'message_posted', id: 'm1' } }],
    ['event', { event: { type: 'thread_spawned', thread: 't2', topic: 'Risk' } }],
    ['event', { event: { type: 'message_blocked', id: 'm2' } }],
    ['event', { event: { type: 'message_posted', id: 'm3' } }],
  ];
  records.forEach(([type, payload], seq) => {
    insert.run('d1', seq, type, `2026-01-01T00:00:0${seq}Z`, JSON.stringify(payload));
  });
  return db;
}

describe('debate view queries', () => {
  it('read how far a debate has got, its header, threads and the events of some types after a record', () => {
    const db = indexWithDebate();
    const ids = (rows: { seq: number; json: string }[]) =>
      rows.map((r) => `${r.seq}:${(JSON.parse(r.json) as { event: { id: string } }).event.id}`);
    expect({
      lastSeq: lastDebateSeq(db, 'd1'),
      lastSeqUnknown: lastDebateSeq(db, 'nope'),
      events: debateEventCount(db, 'd1'),
      header: JSON.parse(debateHeaderJson(db, 'd1') ?? 'null'),
      headerUnknown: debateHeaderJson(db, 'nope'),
      threads: debateThreads(db, 'd1'),
      messages: ids(debateEventsAfter(db, 'd1', -1, ['message_posted', 'message_blocked'])),
      postedAfter3: ids(debateEventsAfter(db, 'd1', 3, ['message_posted'])),
      firstRowAt: debateEventsAfter(db, 'd1', -1, ['message_posted'])[0]?.at,
    }).toEqual({
      lastSeq: 6,
      lastSeqUnknown: -1,
      events: 5,
      header: { header: { id: 'd1', agents: [{ id: 'ana', name: 'Ana' }] } },
      headerUnknown: null,
      threads: [
        { id: 't1', topic: 'Cost' },
        { id: 't2', topic: 'Risk' },
      ],
      messages: ['3:m1', '5:m2', '6:m3'],
      postedAfter3: ['6:m3'],
      firstRowAt: '2026-01-01T00:00:03Z',
    });
    db.close();
  });
});
