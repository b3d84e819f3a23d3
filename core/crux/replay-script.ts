import { z } from 'zod';
import { lineShape, type Numbered, readScriptLine, ScriptError } from '../text/script-lines';
import type { AnalysisOutput } from './analysis';
import { analysisOutputSchema } from './analysis';
import type { CruxConfigOverrides } from './config';
import type { CruxReviewAnswer } from './inputs';
import { configOverridesSchema } from './config';
import { CRUX_RELATIONS, HORIZONS, MOVES, SIDES } from './vocabulary';

// The replay script format: JSON Lines, one object per line, `type` naming the kind. Parsing only
// checks each line's own shape; cross-references (agents, threads) are checked as lines apply.

const id = z.string().min(1);

export const agentSchema = z.object({
  id,
  name: z.string().optional(),
  topClaim: z
    .object({ statement: z.string(), side: z.enum(SIDES), confidence: z.number().min(0).max(1) })
    .optional(),
  defaultHorizon: z.enum(HORIZONS).optional(),
  interests: z.array(z.string().trim().min(1)).optional(),
});

export const debateLineSchema = z.object({
  type: z.literal('debate'),
  topic: z.string(),
  agents: z.array(agentSchema).min(2).max(12),
  config: configOverridesSchema.optional(),
});

export const threadLineSchema = z.object({
  type: z.literal('thread'),
  id,
  topic: z.string(),
  binaryQuestion: z.string().optional(),
});

export const messageLineSchema = z.object({
  type: z.literal('message'),
  thread: id,
  agent: id,
  move: z.enum(MOVES),
  content: z.string().default(''),
  replyTo: id.nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
});

export const proposeThreadLineSchema = z.object({
  type: z.literal('propose_thread'),
  id,
  by: id,
  topic: z.string(),
  binaryQuestion: z.string().nullish(),
  supporters: z.array(id),
});

export const crystallizeLineSchema = z.object({
  type: z.literal('crystallize'),
  thread: id,
  output: analysisOutputSchema,
});

/** The crystallizer's answer to a challenge of the thread's crux: exactly one of the two fields. */
export const cruxReviewLineSchema = z
  .object({
    type: z.literal('crux_review'),
    thread: id,
    output: analysisOutputSchema.optional(),
    needsClarification: z.string().trim().min(1).optional(),
  })
  .refine((l) => (l.output === undefined) !== (l.needsClarification === undefined), {
    message: 'a crux_review line has either output (the crux re-extracted) or needsClarification, not both',
  });

export const coalitionLabelsLineSchema = z.object({
  type: z.literal('coalition_labels'),
  labels: z.array(z.object({ members: z.array(id).min(1), label: z.string() })),
});

/**
 * What the cross-thread analysis answers for the pair of cruxes a (crystallized first) and b: the
 * first call's proposal and, when it passes the thresholds, the second call's verdict (`check`).
 */
export const cruxRelationLineSchema = z.object({
  type: z.literal('crux_relation'),
  a: id,
  b: id,
  relation: z.enum(CRUX_RELATIONS),
  from: id.optional(),
  confidence: z.number().min(0).max(1),
  sketch: z.string().default(''),
  check: z.object({ agrees: z.boolean(), note: z.string().default('') }).optional(),
});

const LINE_SCHEMAS = {
  debate: debateLineSchema,
  thread: threadLineSchema,
  message: messageLineSchema,
  propose_thread: proposeThreadLineSchema,
  crystallize: crystallizeLineSchema,
  crux_review: cruxReviewLineSchema,
  coalition_labels: coalitionLabelsLineSchema,
  crux_relation: cruxRelationLineSchema,
} as const;
const LINE_TYPES = Object.keys(LINE_SCHEMAS) as (keyof typeof LINE_SCHEMAS)[];

export type DebateLine = z.infer<typeof debateLineSchema>;
export type ThreadLine = z.infer<typeof threadLineSchema>;
export type MessageLine = z.infer<typeof messageLineSchema>;
export type ProposeThreadLine = z.infer<typeof proposeThreadLineSchema>;
export type CrystallizeLine = z.infer<typeof crystallizeLineSchema>;
export type CoalitionLabelsLine = z.infer<typeof coalitionLabelsLineSchema>;
export type CruxReviewLine = z.infer<typeof cruxReviewLineSchema>;
export type CruxRelationLine = z.infer<typeof cruxRelationLineSchema>;
export type ScriptLine =
  | DebateLine
  | ThreadLine
  | MessageLine
  | ProposeThreadLine
  | CrystallizeLine
  | CruxReviewLine
  | CoalitionLabelsLine
  | CruxRelationLine;

export type { Numbered };

export interface ParsedScript {
  debate: Numbered<DebateLine & { config: CruxConfigOverrides }>;
  /** thread, message and propose_thread lines, in file order. */
  steps: Numbered<ThreadLine | MessageLine | ProposeThreadLine>[];
  /** crystallize lines by thread id. */
  crystallize: Record<string, Numbered<{ output: AnalysisOutput }>>;
  /** crux_review lines by thread id, in file order: each review of the thread takes the next one. */
  reviews: Record<string, Numbered<CruxReviewAnswer>[]>;
  coalitionLabels: Numbered<CoalitionLabelsLine>[];
  /** crux_relation lines by pair, `<a>|<b>`: the answers to the cross-thread analysis' calls. */
  relations: Record<string, Numbered<CruxRelationLine>>;
}

export function parseLine(text: string, line: number): ScriptLine {
  const raw = readScriptLine(text, line, LINE_TYPES);
  return lineShape(LINE_SCHEMAS[raw.type], raw, line);
}

/** Splits and parses a whole script; `crystallize`, `crux_review`, `coalition_labels` and `crux_relation` lines are gathered apart. */
export function parseScript(text: string): ParsedScript {
  const lines = text.split(/\r?\n/);
  let debate: ParsedScript['debate'] | undefined;
  const steps: ParsedScript['steps'] = [];
  const crystallize: ParsedScript['crystallize'] = {};
  const reviews: ParsedScript['reviews'] = {};
  const coalitionLabels: ParsedScript['coalitionLabels'] = [];
  const relations: ParsedScript['relations'] = {};

  lines.forEach((textLine, index) => {
    const line = index + 1;
    if (textLine.trim() === '') return;
    const entry = parseLine(textLine, line);
    if (!debate) {
      if (entry.type !== 'debate') throw new ScriptError(line, 'the first line must be a debate line');
      debate = { line, entry: { ...entry, config: entry.config ?? {} } };
      return;
    }
    switch (entry.type) {
      case 'debate':
        throw new ScriptError(line, `a second debate line (the first is line ${debate.line})`);
      case 'crystallize': {
        const earlier = crystallize[entry.thread];
        if (earlier) {
          throw new ScriptError(line, `a second crystallize line for thread "${entry.thread}" (first on line ${earlier.line})`);
        }
        crystallize[entry.thread] = { line, entry: { output: entry.output } };
        return;
      }
      case 'crux_review': {
        const answer: CruxReviewAnswer = entry.output
          ? { output: entry.output }
          : { needsClarification: entry.needsClarification as string };
        reviews[entry.thread] = [...(reviews[entry.thread] ?? []), { line, entry: answer }];
        return;
      }
      case 'coalition_labels':
        coalitionLabels.push({ line, entry });
        return;
      case 'crux_relation': {
        const key = `${entry.a}|${entry.b}`;
        const earlier = relations[key];
        if (earlier) {
          throw new ScriptError(line, `a second crux_relation line for "${entry.a}" and "${entry.b}" (first on line ${earlier.line})`);
        }
        relations[key] = { line, entry };
        return;
      }
      default:
        steps.push({ line, entry });
    }
  });

  if (!debate) throw new ScriptError(1, 'empty script: the first line must be a debate line');
  return { debate, steps, crystallize, reviews, coalitionLabels, relations };
}
