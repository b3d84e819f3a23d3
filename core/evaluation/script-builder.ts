import type { EvaluationInput } from './inputs';

// Small builders for evaluation replay scripts, so tests and fixtures can state an evaluation in a
// few lines and still produce exactly the JSONL the replay driver reads. Nothing here knows the
// rules: a builder never decides whether an answer will be accepted.

export type ScriptObject = Record<string, unknown>;

export interface HeaderOptions {
  mode?: 'quick' | 'standard' | 'deep';
  idea?: { id: string; title: string };
  contentHash?: string;
  information?: { asked: number; answered: number };
  config?: ScriptObject;
  evaluationId?: string;
  startedAt?: string;
}

export function header(options: HeaderOptions = {}): ScriptObject {
  return {
    type: 'evaluation',
    idea: options.idea ?? { id: 'idea-1', title: 'Test idea' },
    mode: options.mode ?? 'standard',
    contentHash: options.contentHash ?? 'hash-1',
    information: options.information ?? { asked: 4, answered: 2 },
    ...(options.config ? { config: options.config } : {}),
    ...(options.evaluationId ? { evaluationId: options.evaluationId } : {}),
    ...(options.startedAt ? { startedAt: options.startedAt } : {}),
  };
}

export function answer(role: string, value: unknown, at?: string): ScriptObject {
  return { type: 'answer', role, answer: value, ...(at === undefined ? {} : { at }) };
}

/** `[criterion, score, confidence]` per criterion of the category. */
export function evaluator(category: string, scores: readonly (readonly [string, number, number])[]): ScriptObject {
  return answer(`evaluator:${category}`, {
    scores: scores.map(([criterion, score, confidence]) => ({
      criterion,
      score,
      confidence,
      reasoning: `${criterion} scored ${score}`,
    })),
  });
}

/** `[criterion, severity, text]` per challenge. */
export function redteam(persona: string, challenges: readonly (readonly [string, string, string])[]): ScriptObject {
  return answer(`redteam:${persona}`, {
    challenges: challenges.map(([criterion, severity, challenge]) => ({ criterion, severity, challenge })),
  });
}

export function defense(response = 'The evidence supports the score.'): ScriptObject {
  return answer('defense', { response });
}

export interface RulingOptions {
  bonus?: boolean;
  fallacies?: string[];
  reasoning?: string;
}

export function ruling(
  winner: 'EVALUATOR' | 'RED_TEAM' | 'DRAW',
  scoreAdjustment = 0,
  options: RulingOptions = {},
): ScriptObject {
  return answer('arbiter', {
    winner,
    scoreAdjustment,
    firstPrinciplesBonus: options.bonus ?? false,
    fallacies: options.fallacies ?? [],
    reasoning: options.reasoning ?? `${winner} takes the point`,
  });
}

/** `[criterion, score, confidence, openQuestions?]` per criterion the synthesis settles. */
export function synthesis(
  entries: readonly (readonly [string, number, number, string[]?])[],
  newInsights: readonly string[] = [],
): ScriptObject {
  return answer('synthesis', {
    criteria: entries.map(([criterion, score, confidence, openQuestions]) => ({
      criterion,
      score,
      confidence,
      prevailingPosition: 'The stronger argument',
      resolutionReasoning: `It settles ${criterion} at ${score}`,
      openQuestions: openQuestions ?? [],
    })),
    newInsights: [...newInsights],
  });
}

export function narrative(
  recommendation: 'PURSUE' | 'REFINE' | 'PAUSE' | 'ABANDON' = 'REFINE',
  extra: ScriptObject = {},
): ScriptObject {
  return answer('narrative', {
    executiveSummary: 'A promising idea with open questions.',
    keyStrengths: ['A real problem'],
    keyWeaknesses: ['Unproven demand'],
    criticalAssumptions: ['People will pay'],
    unresolvedQuestions: ['How large is the market?'],
    recommendation,
    recommendationReasoning: 'The scores justify it.',
    ...extra,
  });
}

export function control(type: 'budget_exhausted' | 'timeout' | 'user_approved' | 'add_round' | 'retry'): ScriptObject {
  return { type };
}

export function failLine(reason: string): ScriptObject {
  return { type: 'fail', reason };
}

/** Joins lines (nested arrays are flattened) into JSONL text. */
export function script(...lines: (ScriptObject | readonly ScriptObject[])[]): string {
  return lines
    .flat()
    .map((l) => JSON.stringify(l))
    .join('\n');
}

/** An input, as the answer or control line that would produce it (the `start` input has none). */
export function lineOf(input: EvaluationInput): ScriptObject | null {
  const at = input.at === undefined ? {} : { at: input.at };
  switch (input.kind) {
    case 'start':
      return null;
    case 'evaluator':
      return { ...answer(`evaluator:${input.category}`, input.answer), ...at };
    case 'redteam':
      return { ...answer(`redteam:${input.persona}`, input.answer), ...at };
    case 'defense':
    case 'arbiter':
    case 'synthesis':
    case 'narrative':
      return { ...answer(input.kind, input.answer), ...at };
    case 'fail':
      return { type: 'fail', reason: input.reason, ...at };
    default:
      return { type: input.kind, ...at };
  }
}

/**
 * A replay script that reproduces a run from its input log: the header, then one line per input.
 * With it, a simulated evaluation can be saved as a fixture and replayed offline.
 */
export function scriptFromInputs(head: ScriptObject, inputs: readonly EvaluationInput[]): string {
  return script(
    head,
    inputs.map(lineOf).filter((l): l is ScriptObject => l !== null),
  );
}
