import { z } from 'zod';
import { lineShape, type Numbered, readScriptLine, ScriptError } from '../text/script-lines';
import { issuePath } from '../text/zod-issues';
import type {
  ArbiterAnswer,
  DefenseAnswer,
  EvaluatorAnswer,
  Narrative,
  RedTeamAnswer,
  SynthesisAnswer,
} from './answers';
import {
  arbiterAnswerSchema,
  defenseAnswerSchema,
  evaluatorAnswerSchema,
  narrativeSchema,
  redTeamAnswerSchema,
  synthesisAnswerSchema,
} from './answers';
import { configOverridesSchema } from './config';
import type { RedTeamPersona } from './vocabulary';
import { isRedTeamPersona, MODES } from './vocabulary';

// The evaluation replay format: JSON Lines, one object per line, `type` naming the kind. The first
// line describes the evaluation; every later line is an agent's answer (queued by role) or a
// control line (a limit, the researcher's approval, a failure, a retry). Each line's own shape is
// checked here; whether an answer fits the ask it ends up answering is checked as it applies.

const count = z.number().int().min(0);
const at = z.string().optional();

export const evaluationLineSchema = z.object({
  type: z.literal('evaluation'),
  idea: z.object({ id: z.string().min(1), title: z.string() }),
  mode: z.enum(MODES),
  contentHash: z.string().min(1),
  information: z.object({ asked: count, answered: count }).optional(),
  config: configOverridesSchema.optional(),
  evaluationId: z.string().min(1).optional(),
  startedAt: z.string().optional(),
});
export type EvaluationLine = z.infer<typeof evaluationLineSchema>;

const answerLineSchema = z.object({ type: z.literal('answer'), role: z.string().min(1), answer: z.unknown(), at });
const controlLineSchema = z.object({
  type: z.enum(['budget_exhausted', 'timeout', 'user_approved', 'add_round', 'retry']),
  at,
});
const failLineSchema = z.object({ type: z.literal('fail'), reason: z.string().trim().min(1), at });

const LINE_TYPES = [
  'evaluation',
  'answer',
  'budget_exhausted',
  'timeout',
  'user_approved',
  'add_round',
  'fail',
  'retry',
] as const;

/** A parsed answer, typed by its role. */
export type ScriptAnswer =
  | { role: 'evaluator'; category: string; answer: EvaluatorAnswer }
  | { role: 'redteam'; persona: RedTeamPersona; answer: RedTeamAnswer }
  | { role: 'defense'; answer: DefenseAnswer }
  | { role: 'arbiter'; answer: ArbiterAnswer }
  | { role: 'synthesis'; answer: SynthesisAnswer }
  | { role: 'narrative'; answer: Narrative };

export type ScriptStep =
  | { kind: 'answer'; queue: string; answer: ScriptAnswer; at?: string }
  | { kind: 'budget_exhausted' | 'timeout' | 'user_approved' | 'add_round' | 'retry'; at?: string }
  | { kind: 'fail'; reason: string; at?: string };

export type { Numbered };

/** What the answer lines are checked against: the evaluation they will be fed to. */
export interface ScriptContext {
  categories: readonly string[];
  personas: readonly RedTeamPersona[];
  mode: string;
  scoreAdjustmentRange: number;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issuePath(issue.path);
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

function answerOf<T>(schema: z.ZodType<T>, raw: unknown, role: string, line: number): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ScriptError(line, `${role}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** Reads one answer line: the role must exist in this evaluation, the answer must fit its schema. */
function parseAnswer(entry: z.infer<typeof answerLineSchema>, line: number, context: ScriptContext): ScriptStep {
  const { role } = entry;
  const timed = entry.at === undefined ? {} : { at: entry.at };
  const [kind, who] = role.split(':', 2) as [string, string | undefined];
  if (kind === 'evaluator' && who !== undefined) {
    if (!context.categories.includes(who)) {
      throw new ScriptError(line, `unknown role "${role}": the categories are ${context.categories.join(', ')}`);
    }
    const answer = answerOf(evaluatorAnswerSchema, entry.answer, role, line);
    return { kind: 'answer', queue: role, answer: { role: 'evaluator', category: who, answer }, ...timed };
  }
  if (kind === 'redteam' && who !== undefined) {
    if (!isRedTeamPersona(who) || !context.personas.includes(who)) {
      throw new ScriptError(
        line,
        `unknown role "${role}": the red team of a ${context.mode} evaluation is ${context.personas.map((p) => `redteam:${p}`).join(', ')}`,
      );
    }
    const answer = answerOf(redTeamAnswerSchema, entry.answer, role, line);
    return { kind: 'answer', queue: role, answer: { role: 'redteam', persona: who, answer }, ...timed };
  }
  switch (role) {
    case 'defense':
      return {
        kind: 'answer',
        queue: role,
        answer: { role, answer: answerOf(defenseAnswerSchema, entry.answer, role, line) },
        ...timed,
      };
    case 'arbiter': {
      const schema = arbiterAnswerSchema(context.scoreAdjustmentRange);
      return {
        kind: 'answer',
        queue: role,
        answer: { role, answer: answerOf(schema, entry.answer, role, line) },
        ...timed,
      };
    }
    case 'synthesis':
      return {
        kind: 'answer',
        queue: role,
        answer: { role, answer: answerOf(synthesisAnswerSchema, entry.answer, role, line) },
        ...timed,
      };
    case 'narrative':
      return {
        kind: 'answer',
        queue: role,
        answer: { role, answer: answerOf(narrativeSchema, entry.answer, role, line) },
        ...timed,
      };
    default:
      throw new ScriptError(
        line,
        `unknown role "${role}": use evaluator:<category>, redteam:<persona>, defense, arbiter, synthesis or narrative`,
      );
  }
}

/** Parses answer and control lines (no evaluation line); `offset` is the number of lines before them. */
export function parseSteps(lines: readonly string[], context: ScriptContext, offset = 0): Numbered<ScriptStep>[] {
  const steps: Numbered<ScriptStep>[] = [];
  lines.forEach((text, index) => {
    const line = offset + index + 1;
    if (text.trim() === '') return;
    const raw = readScriptLine(text, line, LINE_TYPES);
    switch (raw.type) {
      case 'evaluation':
        throw new ScriptError(line, 'an evaluation line belongs only on the first line of a script');
      case 'answer':
        steps.push({ line, entry: parseAnswer(lineShape(answerLineSchema, raw, line), line, context) });
        return;
      case 'fail': {
        const entry = lineShape(failLineSchema, raw, line);
        steps.push({
          line,
          entry: { kind: 'fail', reason: entry.reason, ...(entry.at === undefined ? {} : { at: entry.at }) },
        });
        return;
      }
      default: {
        const entry = lineShape(controlLineSchema, raw, line);
        steps.push({ line, entry: { kind: entry.type, ...(entry.at === undefined ? {} : { at: entry.at }) } });
      }
    }
  });
  return steps;
}

/** Splits a script into its lines, CRLF or LF. */
export function scriptLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  // A final newline does not make an extra line.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Parses the evaluation line; the caller resolves the rest against the evaluation it describes. */
export function parseHeader(lines: readonly string[]): Numbered<EvaluationLine> {
  const index = lines.findIndex((l) => l.trim() !== '');
  const text = lines[index];
  if (index < 0 || text === undefined)
    throw new ScriptError(1, 'empty script: the first line must be an evaluation line');
  const line = index + 1;
  const raw = readScriptLine(text, line, LINE_TYPES);
  if (raw.type !== 'evaluation') throw new ScriptError(line, 'the first line must be an evaluation line');
  const entry = lineShape(evaluationLineSchema, raw, line);
  if (entry.information && entry.information.answered > entry.information.asked) {
    throw new ScriptError(
      line,
      `schema violation at information.answered: ${entry.information.answered} answered but only ${entry.information.asked} asked`,
    );
  }
  return { line, entry };
}
