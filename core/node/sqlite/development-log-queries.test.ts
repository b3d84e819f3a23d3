import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { logDevelopmentQuestions, recordDevelopmentAnswer } from './development-log-queries';
import { migrate } from './migrations';

describe('development log queries', () => {
  it('log questions unanswered and record an answer to one question of one idea', () => {
    const db = new Database(':memory:');
    migrate(db);
    logDevelopmentQuestions(
      db,
      'idea-a',
      [
        { question: 'Who pays?', gap: 'problem-clarity' },
        { question: 'How long is the lease?', gap: null },
      ],
      'ai',
      '2026-02-01',
    );
    logDevelopmentQuestions(db, 'idea-b', [{ question: 'Who pays?', gap: 'market' }], 'ai', '2026-02-02');
    recordDevelopmentAnswer(db, 'idea-a', 'Who pays?', 'The members.', '2026-02-03T10:00:00.000Z');
    expect(
      db
        .prepare(
          'SELECT idea_id, question, answer, source, gap, asked_at, answered_at FROM development_log ORDER BY id',
        )
        .all(),
    ).toEqual([
      {
        idea_id: 'idea-a',
        question: 'Who pays?',
        answer: 'The members.',
        source: 'ai',
        gap: 'problem-clarity',
        asked_at: '2026-02-01',
        answered_at: '2026-02-03T10:00:00.000Z',
      },
      {
        idea_id: 'idea-a',
        question: 'How long is the lease?',
        answer: null,
        source: 'ai',
        gap: null,
        asked_at: '2026-02-01',
        answered_at: null,
      },
      {
        idea_id: 'idea-b',
        question: 'Who pays?',
        answer: null,
        source: 'ai',
        gap: 'market',
        asked_at: '2026-02-02',
        answered_at: null,
      },
    ]);
    db.close();
  });
});
