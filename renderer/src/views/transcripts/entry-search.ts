import type { EvaluationEntry } from '../../../../core/contract';
import { entryWordsText } from '../evaluation/entry-words';

/** What an evaluation entry says, as the log has it: title, then text. */
export function entryText(e: EvaluationEntry): string {
  return e.text === '' ? e.title : `${e.title}: ${e.text}`;
}

/**
 * What the find looks in: the log's words (its codes, "PENDING → EVALUATING") and the row's
 * ("about to start → first scoring"), so a search finds an entry by either.
 */
export function entrySearchText(e: EvaluationEntry): string {
  const raw = entryText(e);
  const words = entryWordsText(e);
  return words === raw ? raw : `${raw}\n${words}`;
}
