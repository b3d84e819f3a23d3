import { describe, expect, it } from 'vitest';
import type { CruxEventView } from '../../core/contract';
import { columnsFrom } from '../../renderer/src/views/debate/columns';
import { lockFailureWords, validationFailureWords } from '../../renderer/src/views/debate/lock-words';

// The debate view's notes name a thread by its question, and a stage or a closing in plain words
// with the protocol's code kept for the tooltip.

const QUESTION = 'Will the community-owned solar co-op meet its stated target for member savings within 18 months?';

const events: CruxEventView[] = [
  { type: 'thread_opened', thread: 't1', topic: 'solar co-op', binaryQuestion: null },
  { type: 'binary_question_set', thread: 't1', question: QUESTION, by: 'ethicist', messageId: 'm4' },
  { type: 'stage_transition', thread: 't1', from: 'DISCOVERY', to: 'CRUX_LOCK', reason: 'question accepted' },
  { type: 'primary_crux_changed', from: null, to: 't1' },
  { type: 'thread_closed', thread: 't1', status: 'CONVERGED', reason: 'crux crystallized' },
];

describe('columnsFrom', () => {
  it('names the primary crux by its question, shortened, with the id second and the whole in the tooltip', () => {
    const [note] = columnsFrom(events).notes;
    expect(note?.text).not.toMatch(/now t1\b/);
    expect(note?.text).toMatch(/^The primary crux is now “Will the community-owned solar co-op .*…” \(t1\)\.$/);
    expect(note?.text.length).toBeLessThan(QUESTION.length + 30);
    expect(note?.title).toBe(`${QUESTION} (thread t1)`);
  });

  it('says stage changes and closings in plain words, the codes in the tooltip', () => {
    const items = columnsFrom(events).columns[0]?.items ?? [];
    const notes = items.flatMap((i) => (i.kind === 'note' ? [i] : []));
    const stage = notes.find((n) => n.title === 'DISCOVERY → CRUX_LOCK');
    expect(stage?.text).toBe('finding the disagreement → fixing the crux (question accepted)');
    const closed = notes.find((n) => n.term === 'CONVERGED');
    expect(closed?.text).toBe('closed: done (crux crystallized)');
    expect(notes.map((n) => n.text).join(' ')).not.toMatch(/DISCOVERY|CRUX_LOCK|CONVERGED/);
  });
});

describe('lock attempts and closings in words', () => {
  const names: Record<string, string> = {
    'end-user-advocate': 'End-User Advocate',
    historian: 'Historian',
    investor: 'Investor',
  };
  const agentName = (a: string) => names[a] ?? a;
  const lockEvents: CruxEventView[] = [
    { type: 'thread_opened', thread: 't1', topic: 'solar co-op', binaryQuestion: QUESTION },
    {
      type: 'lock_failed',
      thread: 't1',
      attempt: 3,
      failures: ['NO_SPLIT', 'STEELMAN_GIVE:end-user-advocate', 'STEELMAN_RECEIVE:end-user-advocate'],
    },
    { type: 'thread_closed', thread: 't1', status: 'FAILED_LOCK', reason: '3 failed lock attempts' },
  ];
  const notesOf = (evs: CruxEventView[], thread = 't1') =>
    (columnsFrom(evs, { agentName, maxLockAttempts: 3 }).columns.find((c) => c.id === thread)?.items ?? []).flatMap(
      (i) => (i.kind === 'note' ? [i] : []),
    );

  it('names every failure of the lock check, debaters by name, the codes in the tooltip', () => {
    const [failed] = notesOf(lockEvents);
    expect(failed?.text).toBe(
      'Lock attempt 3 of 3 failed: the answers did not split the debaters (no one said yes, or no one said no); End-User Advocate gave no accurate steelman of the other side; nobody on the other side steelmanned End-User Advocate accurately',
    );
    expect(failed?.title).toBe(
      'lock attempt 3 failed: NO_SPLIT, STEELMAN_GIVE:end-user-advocate, STEELMAN_RECEIVE:end-user-advocate',
    );
    expect(failed?.term).toBe('lock-attempts');
  });

  it('has words for each code core/crux/lock.ts produces, gathering debaters of one kind', () => {
    const words = lockFailureWords(
      [
        'MIN_COMMITMENTS',
        'STEELMAN_GIVE:investor',
        'STEELMAN_GIVE:historian',
        'STEELMAN_RECEIVE:investor',
        'STEELMAN_RECEIVE:historian',
        'STEELMAN_PAIR:investor->historian',
        'FALSIFIER_MISSING:historian',
      ],
      agentName,
    );
    expect(words).toEqual([
      'fewer than two debaters committed to an answer',
      'Investor and Historian gave no accurate steelman of the other side',
      'nobody on the other side steelmanned Investor or Historian accurately',
      'Investor gave no accurate steelman of Historian',
      'Historian named no falsifier',
    ]);
    expect(words.join(' ')).not.toMatch(/[A-Z]{2,}_|investor|historian/);
  });

  it('says a closing in words with a (?) to its status, the code and reason in the tooltip', () => {
    const closed = notesOf(lockEvents).find((n) => n.term === 'FAILED_LOCK');
    expect(closed?.text).toBe('closed: crux would not fix (3 failed lock attempts)');
    expect(closed?.title).toBe('FAILED_LOCK: 3 failed lock attempts');
  });

  it('names merged threads and spawners by their questions and names, the ids in the tooltip', () => {
    const other = 'Will members see a 10% saving on their bills within two years?';
    const evs: CruxEventView[] = [
      { type: 'thread_opened', thread: 't1', topic: 'solar co-op', binaryQuestion: QUESTION },
      {
        type: 'thread_spawned',
        thread: 't2',
        topic: 'savings',
        binaryQuestion: other,
        by: 'historian',
        supporters: ['investor', 'end-user-advocate'],
      },
      { type: 'threads_merged', thread: 't2', into: 't1', similarity: 0.8, messageId: 'm12' },
      {
        type: 'thread_closed',
        thread: 't2',
        status: 'MERGED',
        reason: 'working on the same crux as t1 (keyword similarity 0.8)',
      },
    ];
    const t2 = notesOf(evs, 't2');
    expect(t2[0]?.text).toBe('spawned by Historian with Investor, End-User Advocate');
    expect(t2[0]?.title).toBe('by historian with investor, end-user-advocate');
    expect(t2[1]?.text).toBe(
      'merged into “Will the community-owned solar co-op meet its stated target for member savings…” (t1): the same crux',
    );
    expect(t2[1]?.title).toBe('t2 merged into t1 at m12');
    expect(t2[2]?.text).toMatch(/^closed: merged \(working on the same crux as “Will the community-owned/);
    const t1 = notesOf(evs, 't1');
    expect(t1[0]?.text).toBe(`“${other}” (t2) merged into this thread: the same crux`);
    expect([...t1, ...t2].map((n) => n.text).join(' ')).not.toMatch(/historian|investor|end-user-advocate/);
  });
});

describe('a crux that did not validate', () => {
  it('says why in words, debaters by name, the codes in the tooltip', () => {
    expect(
      validationFailureWords(
        [
          'NO_SPLIT',
          'FEW_CRITERIA',
          'VAGUE_CRITERION',
          'NOT_DECISION_RELEVANT',
          'MEASUREMENT_QUESTION',
          'VAGUE_FALSIFIER:historian',
          'VAGUE_FALSIFIER:investor',
          'NEEDS_CLARIFICATION',
        ],
        (a) => ({ historian: 'Historian', investor: 'Investor' })[a] ?? a,
      ),
    ).toEqual([
      'the answers do not split the debaters',
      'fewer than two ways to settle it',
      'a way to settle it is vague',
      'fewer than two debaters would change their minds on it',
      'it asks for a measurement, not a yes/no question about the future',
      'a debater asked for it to be worded more clearly',
      'the falsifiers of Historian and Investor are vague',
    ]);
  });
});
