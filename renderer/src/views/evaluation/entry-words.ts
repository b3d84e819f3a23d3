import type { EvaluationEntry } from '../../../../core/contract';
import { plainWords } from '../../ui/glossary';

/**
 * A piece of an entry's line: plain text, or a protocol code the page shows in words with a (?)
 * (its glossary key). The log keeps the codes ("PENDING → EVALUATING", "nucleation: …",
 * "Locked: MAX_ROUNDS"), as replays and exports read them; only the page translates.
 */
export type Part = string | { term: string; code: string };

/** The glossary key of an evaluation phase (FAILED is also a council status, with its own entry). */
export const phaseTerm = (phase: string): string => (phase === 'FAILED' ? 'evaluation-failed' : phase);

const LOCK_REASONS = new Set(['CONVERGENCE', 'MAX_ROUNDS', 'BUDGET', 'TIMEOUT', 'USER_APPROVED']);
const PHASES = new Set(['PENDING', 'EVALUATING', 'DEBATING', 'SYNTHESIZING', 'REVIEWING', 'LOCKED', 'FAILED']);

const term = (code: string): Part => ({ term: phaseTerm(code), code });

/** An entry's title and text as parts: codes the glossary knows become words with a (?). */
export function entryParts(entry: Pick<EvaluationEntry, 'type' | 'title' | 'text'>): { title: Part[]; text: Part[] } {
  return { title: titleParts(entry), text: textParts(entry.text) };
}

function titleParts({ type, title }: Pick<EvaluationEntry, 'type' | 'title'>): Part[] {
  if (type === 'phase_changed') {
    const [from, to] = title.split(' → ');
    if (from && to && PHASES.has(from) && PHASES.has(to)) return [term(from), ' → ', term(to)];
  }
  if (type === 'evaluation_locked') {
    const reason = title.replace(/^Locked: /, '');
    if (LOCK_REASONS.has(reason)) return ['Locked: ', term(reason)];
  }
  return [title];
}

function textParts(text: string): Part[] {
  if (text.startsWith('nucleation: ')) return [term('nucleation'), text.slice('nucleation'.length)];
  const locked = /^crystallized: ([A-Z_]+)$/.exec(text);
  if (locked?.[1] && LOCK_REASONS.has(locked[1])) return ['locked: ', term(locked[1])];
  return text ? [text] : [];
}

/**
 * An entry as the page reads it, in words ("about to start → first scoring: …"), for a find that
 * should match what is shown as well as the log's codes.
 */
export function entryWordsText(entry: Pick<EvaluationEntry, 'type' | 'title' | 'text'>): string {
  const { title, text } = entryParts(entry);
  const said = (parts: Part[]) => parts.map((p) => (typeof p === 'string' ? p : plainWords(p.term))).join('');
  return text.length === 0 ? said(title) : `${said(title)}: ${said(text)}`;
}
