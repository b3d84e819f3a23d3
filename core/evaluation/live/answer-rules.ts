import type { AnswerCheck, LlmRequest } from '../../ports/llm';
import type { EvaluatorAnswer, RedTeamAnswer, SynthesisAnswer } from '../answers';
import { EvaluationInputError } from '../errors';
import type { EvaluationAsk, EvaluationState } from '../state';
import { step } from '../step';
import { inputFor } from './requests';

/**
 * What an evaluation holds a model's answer to beyond its schema, checked while the call is still
 * open so that a slip is repaired or put back to the model rather than ending the evaluation:
 * - a criterion named as the taxonomy writes it ("Problem Clarity" for `problem-clarity`) is read as
 *   its id when it names exactly one criterion;
 * - an evaluator's entry for a criterion outside its category is dropped when its own criteria are
 *   all scored (the entry is surplus); otherwise the answer is re-asked;
 * - then the answer is tried on a copy of the state: whatever the protocol refuses (a synthesis score
 *   not among the positions in play, a criterion scored twice, one missing) is re-asked with the
 *   protocol's own words.
 */

function canonical(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** The criterion a model's words name: its id, its name in any case or spacing; null when none or several. */
export function criterionIdOf(state: EvaluationState, text: string): string | null {
  if (state.criteria.some((c) => c.id === text)) return text;
  const key = canonical(text);
  const found = state.criteria.filter((c) => canonical(c.id) === key || canonical(c.name) === key);
  return found.length === 1 ? (found[0]?.id ?? null) : null;
}

function readCriteria<E extends { criterion: string }>(
  state: EvaluationState,
  entries: readonly E[],
  field: string,
  repairs: string[],
): E[] {
  return entries.map((entry, i) => {
    const id = criterionIdOf(state, entry.criterion);
    if (id === null || id === entry.criterion) return entry;
    repairs.push(`${field}[${i}].criterion: "${entry.criterion}" read as ${id}`);
    return { ...entry, criterion: id };
  });
}

function repaired(ask: EvaluationAsk, state: EvaluationState, value: unknown, repairs: string[]): unknown {
  switch (ask.role) {
    case 'evaluator': {
      const answer = value as EvaluatorAnswer;
      const scores = readCriteria(state, answer.scores, 'scores', repairs);
      const own = scores.filter((s) => ask.criteria.includes(s.criterion));
      const complete = ask.criteria.every((id) => own.some((s) => s.criterion === id));
      if (!complete || own.length === scores.length) return { ...answer, scores };
      scores.forEach((s, i) => {
        if (!ask.criteria.includes(s.criterion))
          repairs.push(`scores[${i}]: "${s.criterion}" is not this evaluator's; dropped`);
      });
      return { ...answer, scores: own };
    }
    case 'redteam': {
      const answer = value as RedTeamAnswer;
      return { ...answer, challenges: readCriteria(state, answer.challenges, 'challenges', repairs) };
    }
    case 'synthesis': {
      const answer = value as SynthesisAnswer;
      return { ...answer, criteria: readCriteria(state, answer.criteria, 'criteria', repairs) };
    }
    default:
      return value;
  }
}

/** The check of one ask's answer against the state it was asked in. */
export function answerCheck(ask: EvaluationAsk, state: EvaluationState, now: () => string) {
  return (value: unknown): AnswerCheck<unknown> => {
    const repairs: string[] = [];
    const answer = repaired(ask, state, value, repairs);
    try {
      step(state, inputFor(ask, answer, now()));
    } catch (error) {
      if (!(error instanceof EvaluationInputError)) throw error;
      return { ok: false, problems: [error.message] };
    }
    return { ok: true, value: answer, repairs };
  };
}

/**
 * Output tokens for an ask whose answer grows with what it covers: a synthesis writes a position,
 * its reasoning and open questions for every criterion debated in the round, and may carry every
 * other criterion forward with a new confidence (convergence reads them all).
 */
export function outputTokensFor(ask: EvaluationAsk, asked: number, criteria: number): number {
  if (ask.role === 'synthesis') return Math.max(asked, 600 + 220 * criteria + 100 * ask.touched.length);
  if (ask.role === 'evaluator') return Math.max(asked, 400 + 350 * ask.criteria.length);
  return asked;
}

/** The request of an ask, held to the rules above and given room for what it must hold. */
export function heldRequest(
  request: LlmRequest<unknown>,
  ask: EvaluationAsk,
  state: EvaluationState,
  now: () => string,
): LlmRequest<unknown> {
  return {
    ...request,
    maxTokens: outputTokensFor(ask, request.maxTokens, state.criteria.length),
    check: answerCheck(ask, state, now),
  };
}
