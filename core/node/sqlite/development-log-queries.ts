import type Database from 'better-sqlite3';

/**
 * The development log (`development_log`): every question the development agent asked about an
 * idea and the researcher's answer, beside development.md, which stays the authority.
 */

/** Logs questions asked on `askedOn` (a day) by `source` (`ai` for the development agent), unanswered. */
export function logDevelopmentQuestions(
  db: Database.Database,
  ideaId: string,
  questions: readonly { question: string; gap: string | null }[],
  source: string,
  askedOn: string,
): void {
  const log = db.prepare(
    'INSERT INTO development_log (idea_id, question, answer, source, gap, asked_at) VALUES (?, ?, NULL, ?, ?, ?)',
  );
  for (const q of questions) log.run(ideaId, q.question, source, q.gap, askedOn);
}

/** Records the answer to every logged asking of `question` about the idea. */
export function recordDevelopmentAnswer(
  db: Database.Database,
  ideaId: string,
  question: string,
  answer: string,
  answeredAt: string,
): void {
  db.prepare('UPDATE development_log SET answer = ?, answered_at = ? WHERE idea_id = ? AND question = ?').run(
    answer,
    answeredAt,
    ideaId,
    question,
  );
}
